import net from 'node:net';
import request from 'supertest';
import { CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useServiceWithShop } from '../../support/test-service';

const app = useServiceWithShop();

/** Sends bytes as they are and returns the whole answer. */
function raw(bytes: Buffer): Promise<string> {
  const { port } = new URL(app.service.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

test('headers over 16 KB -> 431 in the envelope, with a request id', async () => {
  const answer = await raw(Buffer.from(`GET /api/v1/payments HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
  expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  expect(answer).toMatch(/X-Request-Id: req_[0-9A-Za-z]{20}/);
  expect(answer.split('\r\n\r\n')[1]).toBe('{"success":false,"error":"Request headers are too large"}');
});

test('raw bytes that are not HTTP -> 400 in the envelope', async () => {
  const answer = await raw(Buffer.concat([Buffer.from('GET /api/v1/payments/'), Buffer.from([0xff, 0x00, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(answer.split('\r\n\r\n')[1]).toBe('{"success":false,"error":"Malformed HTTP request"}');
});

test('an unknown Content-Encoding -> 415 naming that header', async () => {
  const res = await sellerClient(app.service.url, app.apiKey).createRaw(JSON.stringify(VALID_PAYMENT), { 'Content-Encoding': 'compress' });
  expect([res.status, res.body]).toEqual([415, { success: false, error: 'Content-Encoding must be gzip, deflate, br or identity' }]);
});

test('/graphql: a gzip body that does not decode -> 400, not 500', async () => {
  const res = await request(app.service.url).post('/graphql').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{"query":"x"}');
  expect(res.status).toBe(400);
  expect(res.body.errors[0]).toMatchObject({ message: 'Request body must be valid JSON', extensions: { code: 'INVALID_JSON' } });
});

test('/graphql: a body over 64 KB -> 413, not a JSON-syntax message', async () => {
  const res = await request(app.service.url).post('/graphql').set('Content-Type', 'application/json').send({ query: CHECKOUT_DOCUMENT, pad: 'x'.repeat(70_000) });
  expect(res.status).toBe(413);
  expect(res.body.errors[0].extensions.code).toBe('BODY_TOO_LARGE');
});

test('/graphql: automatic persisted queries are off: a client error, never INTERNAL', async () => {
  const res = await request(app.service.url)
    .post('/graphql')
    .set('Content-Type', 'application/json')
    .set('Authorization', `Bearer ${app.apiKey}`)
    .send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } } });
  expect(res.status).toBeLessThan(500);
  expect(res.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
  expect(app.service.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
});
