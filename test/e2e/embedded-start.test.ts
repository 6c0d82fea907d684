import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, watchNode, type WatchedProcess } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';

jest.setTimeout(120_000);

let dataDir: string;
let running: WatchedProcess | undefined;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-'));
});
afterAll(async () => {
  await running?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number): Promise<WatchedProcess> {
  running = watchNode('main.js', [], { PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  await running.waitFor(/payment service listening/);
  return running;
}

test('with no DATABASE_URL or REDIS_URL, the service runs on the embedded database, prints a demo key once, and keeps data across restarts', async () => {
  const port = await freePort();
  const first = await start(port);
  const output = await first.waitFor(/API key: +svc_live_[0-9a-f]{64}/);
  expect(output).toMatch(/embedded PostgreSQL \(PGlite\)\. For one instance and local use only/);
  const apiKey = /API key: +(svc_live_[0-9a-f]{64})/.exec(output)![1];
  const seller = sellerClient(`http://127.0.0.1:${port}`, apiKey);
  const created = await seller.create(VALID_PAYMENT);
  expect(created.status).toBe(200);
  expect(created.body.data.checkout_url).toBe(`http://localhost:${port}/checkout/${created.body.data.id}`);
  expect(await first.stop()).toBe(0);

  const second = await start(port);
  const retrieved = await seller.retrieve(created.body.data.id);
  expect(retrieved.status).toBe(200);
  expect(retrieved.body.data.status).toBe('pending');
  expect(second.stdout()).not.toMatch(/API key:/);
  expect(await second.stop()).toBe(0);
});

test('a SIGTERM the moment it says it listens, while it writes the demo shop, drains and exits 0, and the next start has the shop', async () => {
  const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-term-'));
  try {
    const env = { PORT: String(await freePort()), DATA_DIR: freshDir, LOG_LEVEL: 'info' };
    const first = watchNode('main.js', [], env);
    await first.waitFor(/payment service listening/);
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = watchNode('main.js', [], env);
    await second.waitFor(/payment service listening/);
    expect(await second.stop('SIGTERM')).toBe(0);
    // Written once, by whichever start got to it, and only that one prints its key.
    expect(`${first.stdout()}${second.stdout()}`.match(/API key: +svc_live_/g) ?? []).toHaveLength(1);
  } finally {
    fs.rmSync(freshDir, { recursive: true, force: true });
  }
});
