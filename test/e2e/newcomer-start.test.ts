import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { dropDatabase } from '../support/databases';
import { PROJECT_ROOT, freePort, runNode, watchNode } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { POSTGRES_ADMIN_URL, TEST_REDIS_URL, databaseUrlFor, testRun } from '../support/test-env';

jest.setTimeout(120_000);

const serviceEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: testRun().databaseUrl,
  REDIS_URL: TEST_REDIS_URL,
  REDIS_KEY_PREFIX: `${testRun().redisPrefix}newcomer-${randomBytes(3).toString('hex')}:`,
  LOG_LEVEL: 'info',
  ...extra,
});

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

function expectOneLineRefusal(result: { code: number | null; stderr: string; stdout: string }, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
}

describe('a newcomer starting the service', () => {
  test('PORT=0: checkout links carry the port actually bound, and they open; with REDIS_URL set, no warning that it is not', async () => {
    const service = watchNode('main.js', [], serviceEnv({ PORT: '0' }));
    try {
      const output = await service.waitFor(/"msg":"payment service listening"/);
      const listening = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).find((line) => line.msg === 'payment service listening');
      expect(listening.port).toBeGreaterThan(0);
      expect(listening.baseUrl).toBe(`http://localhost:${listening.port}`);
      expect(output).not.toMatch(/REDIS_URL is not set/);

      const shop = await runNode('cli.js', ['create-shop', '--email', `port0-${randomBytes(3).toString('hex')}@shop.example`, '--name', 'Port Zero'], serviceEnv());
      const created = await sellerClient(`http://127.0.0.1:${listening.port}`, JSON.parse(shop.stdout).api_key).create(VALID_PAYMENT);
      const checkoutUrl = created.body.data.checkout_url as string;
      expect(checkoutUrl).toBe(`http://localhost:${listening.port}/checkout/${created.body.data.id}`);
      expect((await request(checkoutUrl.replace('localhost', '127.0.0.1')).get('')).status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  test('a taken port: one line naming the port, no stack trace', async () => {
    const blocker = net.createServer().listen(0);
    await new Promise((resolve) => blocker.once('listening', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const second = await runNode('main.js', [], serviceEnv({ PORT: String(port) }));
      expectOneLineRefusal(second, new RegExp(`^Port ${port} is already in use .*set PORT`));
    } finally {
      blocker.close();
    }
  });

  test('CARD_PROCESSOR=adyen without its credentials: one line naming the missing setting, no stack trace', async () => {
    const result = await runNode('main.js', [], serviceEnv({ PORT: '0', CARD_PROCESSOR: 'adyen', ADYEN_MERCHANT_ACCOUNT: 'ShopECOM' }));
    expectOneLineRefusal(result, /^Invalid configuration: ADYEN_API_KEY is required with CARD_PROCESSOR=adyen/);
  });

  test('the start log says the simulator runs and charges nothing', async () => {
    const service = watchNode('main.js', [], serviceEnv({ PORT: '0' }));
    try {
      await service.waitFor(/card processor: /);
      expect(service.stdout()).toMatch(/card processor: the SIMULATED acquirer: test cards only, no card is ever charged/);
    } finally {
      await service.stop();
    }
  });

  test('a misspelt database in DATABASE_URL is refused, not created; DATABASE_CREATE=1 creates it', async () => {
    const name = `payments_misspelt_${randomBytes(4).toString('hex')}`;
    const env = { DATABASE_URL: databaseUrlFor(name), LOG_LEVEL: 'warn' };
    try {
      expectOneLineRefusal(await runNode('main.js', [], { ...env, PORT: '0' }), new RegExp(`^The database "${name}" does not exist .*DATABASE_CREATE=1`));
      expectOneLineRefusal(await runNode('cli.js', ['check-ledger'], env), /does not exist/);
      expect(await databaseExists(name)).toBe(false);

      const created = await runNode('cli.js', ['check-ledger'], { ...env, DATABASE_CREATE: '1' });
      expect(created.code).toBe(0);
      expect(await databaseExists(name)).toBe(true);
    } finally {
      await dropDatabase(name);
    }
  });

  test('logs are JSON lines when standard output is not a terminal, readable lines with LOG_FORMAT=pretty', async () => {
    const port = await freePort();
    const pretty = watchNode('main.js', [], serviceEnv({ PORT: String(port), LOG_FORMAT: 'pretty' }));
    try {
      const output = await pretty.waitFor(/INFO.*: payment service listening/);
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: payment service listening\n\s+port: \d+/m);
      expect(output).not.toMatch(/"level":/);
    } finally {
      await pretty.stop();
    }
  });
});

describe('the CLI pipes', () => {
  test('`npm run -s cli` prints exactly one JSON line on standard output: piped into a JSON parser, it parses', async () => {
    const email = `pipe-${randomBytes(3).toString('hex')}@shop.example`;
    // The parser fails (and with it the pipeline) on anything but one JSON document: a build line or a log line would do.
    const parser = `process.stdout.write(JSON.stringify(JSON.parse(require('fs').readFileSync(0, 'utf8'))))`;
    const script = `set -o pipefail; npm run -s cli -- create-shop --email ${email} --name Piped | node -e "${parser}"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: PROJECT_ROOT, env: { ...process.env, ...serviceEnv({ LOG_LEVEL: 'info' }) } });
    expect(JSON.parse(stdout)).toEqual({ seller_id: expect.any(String), shop_id: expect.any(String), api_key: expect.stringMatching(/^svc_live_/), webhook_secret: expect.any(String), invitation_link: expect.stringContaining('/dashboard/accept-invitation?token=') });
  });
});
