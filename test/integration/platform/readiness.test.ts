import { Client } from 'pg';
import request from 'supertest';
import { useEmptyDatabase } from '../../support/databases';
import { useOwnRedis } from '../../support/redis-server';
import { useTestService } from '../../support/test-service';

/**
 * /readyz and the `readiness_check_up` gauges of /metrics (docs/operations.md, "Health"): PostgreSQL, Redis and
 * the heartbeats of this process's webhook and mail relays. Each service here has a database of its own, since a
 * test locks a table or closes the pool.
 */
jest.setTimeout(90_000);

const gauge = (text: string, check: string) => new RegExp(`^readiness_check_up\\{check="${check}"\\} (\\d)$`, 'm').exec(text)?.[1];

describe('a webhook relay that stops beating', () => {
  const database = useEmptyDatabase('payments_readiness');
  // The relay's pass waits on the lock below until the driver gives up on it (a failed pass is no heartbeat).
  const service = useTestService(() => ({ DATABASE_URL: database.url, WEBHOOK_POLL_INTERVAL_MS: '50' }));

  test('readiness reports the workers; with no good relay pass for three poll intervals and 20 s it is 503, and ready again once one passes', async () => {
    let res = await request(service.url).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up', workers: { webhook: 'up', mail: 'up' } });
    const metrics = (await request(service.url).get('/metrics')).text;
    for (const check of ['postgresql', 'redis', 'webhook_workers', 'mail_workers']) expect(gauge(metrics, check)).toBe('1');

    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table "webhook_deliveries" in access exclusive mode');
      const deadline = Date.now() + 40_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 500));
        res = await request(service.url).get('/readyz');
      } while (res.status === 200 && Date.now() < deadline);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', database: 'up', redis: 'up', workers: { webhook: 'down', mail: 'up' } });
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const deadline = Date.now() + 10_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await request(service.url).get('/readyz');
    } while (res.status !== 200 && Date.now() < deadline);
    expect(res.body.workers).toEqual({ webhook: 'up', mail: 'up' });
  });
});

describe('a scrape while PostgreSQL or Redis is away', () => {
  const database = useEmptyDatabase('payments_readiness');
  const redis = useOwnRedis();
  const service = useTestService(() => ({ DATABASE_URL: database.url, REDIS_URL: redis.url }));

  test('still answers 200, with readiness_check_up at 0 for what is down, like /readyz', async () => {
    await redis.stop();
    let res = await request(service.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(gauge(res.text, 'redis')).toBe('0');
    expect(gauge(res.text, 'postgresql')).toBe('1');
    expect((await request(service.url).get('/readyz')).body).toMatchObject({ status: 'unavailable', redis: 'down', database: 'up' });

    await service.database.orm.close(true);
    res = await request(service.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(gauge(res.text, 'postgresql')).toBe('0');
    expect(res.text).toMatch(/^queue_depth\{queue="webhook_deliveries_due"\} \d+$/m); // the last values stay
  });
});
