import { randomBytes } from 'node:crypto';
import { runNode } from '../support/processes';
import { testRun } from '../support/test-env';

/** `create-shop --webhook-url` applies the same rule as the GraphQL settings. */
const cli = (args: string[], env: Record<string, string> = {}) => runNode('cli.js', args, { DATABASE_URL: testRun().databaseUrl, LOG_LEVEL: 'warn', ...env });
const email = () => `cli-${randomBytes(5).toString('hex')}@shop.example`;

describe('create-shop --webhook-url', () => {
  test.each([
    ['https://127.0.0.1/hooks', /must not point to a loopback, private/],
    ['https://10.0.0.1/hooks', /must not point to a loopback, private/],
    ['https://[::1]/hooks', /must not point to a loopback, private/],
    ['https://localhost/hooks', /must not point to a loopback, private/],
    ['https://0x7f000001/', /must not point to a loopback, private/],
    ['http://x@127.0.0.1', /--webhook-url must be an https URL with a public address: Webhook URL must be a valid HTTPS URL/],
  ])('%s is refused with a clear message and exit code 2', async (url, message) => {
    const result = await cli(['create-shop', '--email', email(), '--name', 'X', '--webhook-url', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  test('WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 lets a local http:// receiver in (development only)', async () => {
    const result = await cli(['create-shop', '--email', email(), '--name', 'Dev', '--webhook-url', 'http://127.0.0.1:9/hooks'], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).shop_id).toMatch(/^shop_/);
  });
});
