import { randomBytes } from 'node:crypto';
import { freePort, watchNode, type WatchedProcess } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { TEST_REDIS_URL, testRun } from '../support/test-env';
import { useTestService } from '../support/test-service';

jest.setTimeout(60_000);

const helper = useTestService();
let cluster: WatchedProcess | undefined;

afterAll(async () => {
  await cluster?.stop('SIGKILL');
});

test('WEB_CONCURRENCY=2 runs two service processes on one port that serve as one and stop together on SIGTERM', async () => {
  const port = await freePort();
  cluster = watchNode('main.js', [], {
    PORT: String(port), DATABASE_URL: testRun().databaseUrl, REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `${testRun().redisPrefix}cluster-${randomBytes(3).toString('hex')}:`, WEB_CONCURRENCY: '2', LOG_LEVEL: 'info',
  });
  await cluster.waitFor(/payment service listening[\s\S]*payment service listening/);
  const pids = new Set([...cluster.stdout().matchAll(/"pid":(\d+)[^\n]*payment service listening/g)].map((m) => m[1]));
  expect(pids.size).toBe(2);

  const seller = sellerClient(`http://127.0.0.1:${port}`, (await helper.createShop()).apiKey);
  const created = await Promise.all(Array.from({ length: 20 }, () => seller.create(VALID_PAYMENT)));
  expect(created.every((r) => r.status === 200)).toBe(true);
  expect((await seller.retrieve(created[0].body.data.id)).body.data.status).toBe('pending');
  expect(await cluster.stop('SIGTERM')).toBe(0);
});
