import { createEmptyDatabase, dropDatabase } from '../support/databases';
import { runNode } from '../support/processes';
import { sellerClient } from '../support/seller-client';
import { useTestService } from '../support/test-service';

let empty: { name: string; url: string };
const service = useTestService();

beforeAll(async () => {
  empty = await createEmptyDatabase('payments_cli');
});
afterAll(async () => {
  await dropDatabase(empty.name);
});

const cli = (args: string[], databaseUrl = empty.url) => runNode('cli.js', args, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });

describe('operations CLI', () => {
  test('create-shop on an empty database migrates it and prints one JSON line whose key works', async () => {
    const result = await cli(['create-shop', '--email', 'owner@shop.example', '--name', 'Kiosk', '--webhook-url', 'https://shop.example/hooks']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(Object.keys(created)).toEqual(['seller_id', 'shop_id', 'api_key', 'webhook_secret', 'invitation_link']);
    // The seller has no password yet: the operator hands over this single-use link (docs/dashboard.md, "Invitations").
    expect(created.invitation_link).toMatch(/^http:\/\/localhost:3000\/dashboard\/accept-invitation\?token=[A-Za-z0-9_-]{43}$/);
    expect(created.api_key).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(created.webhook_secret).toMatch(/^whsec_/);

    const again = await cli(['create-shop', '--email', 'fresh@shop.example', '--name', 'Kiosk 2'], service.database.orm.config.getClientUrl());
    const key = JSON.parse(again.stdout).api_key;
    expect((await sellerClient(service.url, key).test()).body.data.shop.shop_name).toBe('Kiosk 2');
  });

  test('create-admin prints the admin id, role and a token', async () => {
    const result = await cli(['create-admin', '--email', 'ops@payments.example', '--role', 'support']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      admin_id: expect.stringMatching(/^adm_/),
      role: 'support',
      token: expect.stringMatching(/^adm_[0-9a-f]{64}$/),
      setup_link: expect.stringMatching(/^http:\/\/localhost:3000\/admin\?setup=[A-Za-z0-9_-]{43}$/),
    });
  });

  test.each([
    [['create-shop', '--name', 'No Email'], /--email is required/],
    [['create-shop', '--email', 'not-an-email', '--name', 'X'], /--email must be an email address/],
    [['create-shop', '--email', 'a@b.example', '--name', 'X', '--webhook-url', 'http://insecure.example'], /--webhook-url must be an https URL.*WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 allows http:\/\/ and private addresses/],
    [['create-shop', '--email', 'a@b.example', '--name', 'X', '--colour', 'red'], /Unknown option '--colour'/],
    [['launch-rockets'], /Usage: npm run cli -- <command>/],
  ])('%j -> a clear message and a non-zero exit', async (args, message) => {
    const result = await cli(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  test('the same email twice is refused', async () => {
    await cli(['create-shop', '--email', 'twice@shop.example', '--name', 'A']);
    const second = await cli(['create-shop', '--email', 'twice@shop.example', '--name', 'B']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already registered/);
  });
});
