import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, runNode, watchNode, type WatchedProcess } from '../support/processes';
import { sellerClient } from '../support/seller-client';

jest.setTimeout(180_000);

let dataDir: string;
let service: WatchedProcess | undefined;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-cli-'));
});
afterAll(async () => {
  await service?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra });
const cli = (email: string) => runNode('cli.js', ['create-shop', '--email', email, '--name', `Shop of ${email}`], env());

async function startService(port: number): Promise<WatchedProcess> {
  service = watchNode('main.js', [], env({ PORT: String(port), LOG_LEVEL: 'info' }));
  await service.waitFor(/payment service listening/, 120_000);
  return service;
}

/** One line on standard error, no stack trace. */
function expectOneLineRefusal(result: { code: number | null; stderr: string; stdout: string }, message: RegExp) {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
}

describe('the embedded database has one owner; the CLI works through it or alone', () => {
  test('beside a running embedded service the CLI creates a shop whose key works at once, and a second service is refused', async () => {
    const port = await freePort();
    const running = await startService(port);
    const created = await cli('first@shop.example');
    expect(created.code).toBe(0);
    const { api_key: apiKey } = JSON.parse(created.stdout);
    const answer = await sellerClient(`http://127.0.0.1:${port}`, apiKey).test();
    expect(answer.status).toBe(200);
    expect(answer.body.data.shop.shop_name).toBe('Shop of first@shop.example');
    // The same data, not a copy: the service's database already knows the address.
    expect((await cli('first@shop.example')).stderr).toMatch(/already registered/);

    const second = await runNode('main.js', [], env({ PORT: String(await freePort()) }));
    expectOneLineRefusal(second, new RegExp(`^The embedded database in ${dataDir} is in use by a running service \\(pid ${running.child.pid}\\)`));
  });

  test('after the service is killed (SIGKILL) its lock is stale: the CLI works alone, and the next service sees what it wrote', async () => {
    await service!.stop('SIGKILL');
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')).pid).toBe(service!.child.pid);

    const alone = await cli('second@shop.example');
    expect(alone.code).toBe(0);
    const { api_key: apiKey } = JSON.parse(alone.stdout);
    expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);

    const port = await freePort();
    await startService(port);
    expect((await sellerClient(`http://127.0.0.1:${port}`, apiKey).test()).status).toBe(200);
    expect(await service!.stop()).toBe(0);
  });
});
