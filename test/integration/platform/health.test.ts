import express from 'express';
import request from 'supertest';
import { health } from '../../../src/platform/http/health';
import { startTestService, useTestService } from '../../support/test-service';

const service = useTestService();

test('/livez answers while the process runs; /readyz and /healthz report PostgreSQL, Redis and the workers', async () => {
  expect((await request(service.url).get('/livez')).body).toEqual({ status: 'ok' });
  for (const path of ['/readyz', '/healthz']) {
    const res = await request(service.url).get(path);
    expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up', workers: { webhook: 'up', mail: 'up' } });
    expect(res.status).toBe(200);
  }
});

test('the start\'s lines are flushed as the service listens, not with the next batch of request logs', () => {
  const listening = service.logs.findIndex((line) => line.msg === 'payment service listening');
  expect(listening).toBeGreaterThanOrEqual(0);
  expect(service.logFlushes.some((written) => written > listening)).toBe(true);
});

test('once shutdown starts, readiness is 503 draining (load balancers stop sending) while liveness stays 200', async () => {
  const probes = health(service.database.orm, service.redis);
  const app = express().get('/livez', probes.live).get('/readyz', probes.ready);
  expect((await request(app).get('/readyz')).status).toBe(200);
  probes.drain();
  const res = await request(app).get('/readyz');
  expect(res.status).toBe(503);
  expect(res.body.status).toBe('draining');
  expect((await request(app).get('/livez')).status).toBe(200);
});

test('a service stopped the moment it has started ends cleanly: its queue workers, still naming their connections, leave no unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    const quick = await startTestService();
    await quick.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    process.off('unhandledRejection', record);
  }
  expect(unhandled).toEqual([]);
});
