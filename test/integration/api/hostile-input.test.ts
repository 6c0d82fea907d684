import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { rawRequest } from '../../support/hostile';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/** The faults the property tests (test/property/) found, kept as plain examples so they stay fixed. */

const service = useTestService();
let apiKey: string;
let seller: ReturnType<typeof sellerClient>;

beforeAll(async () => {
  apiKey = (await service.createShop()).apiKey;
  seller = sellerClient(service.url, apiKey);
});

test('a payment id that is not valid percent-encoding -> 404 Payment not found (was 500)', async () => {
  for (const id of ['%zz', '%E0%A4%A', '%', 'pay_%ED%A0']) {
    const res = await seller.retrieve(id);
    expect([id, res.status, res.body]).toEqual([id, 404, { success: false, error: 'Payment not found' }]);
  }
});

test.each(['gzip', 'deflate', 'br'])('a body declared as %s that does not decode -> 400 Request body must be valid JSON (was 500)', async (encoding) => {
  const res = await seller.createRaw(JSON.stringify(VALID_PAYMENT), { 'Content-Encoding': encoding });
  expect([res.status, res.body]).toEqual([400, { success: false, error: 'Request body must be valid JSON' }]);
});

test('a real gzip body is read', async () => {
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' };
  const agent = new http.Agent();
  const res = await rawRequest(service.url, agent, { method: 'POST', path: '/api/v1/payments', headers, body: gzipSync(JSON.stringify(VALID_PAYMENT)) });
  agent.destroy();
  expect(res.status).toBe(200);
});

test.each([
  ['customer_name', 'Ann\u0000Lee', 'Customer name must be 1 to 200 characters'],
  ['customer_email', 'ann\u0000@example.com', 'Customer email must be a valid email address'],
  ['return_url', 'https://shop.example.com/\u0000', 'Return URL must be a valid HTTPS URL'],
  ['customer_name', 'Ann \ud800', 'Customer name must be 1 to 200 characters'],
])('%s %j -> 400 (U+0000 was a 500; a lone surrogate was stored as U+FFFD)', async (field, value, message) => {
  const res = await seller.createRaw(JSON.stringify({ ...VALID_PAYMENT, [field]: value }));
  expect([res.status, res.body]).toEqual([400, { success: false, error: message }]);
});

test('metadata keeps what JSON can carry, prototype keys included, and pollutes nothing', async () => {
  const body = '{"amount":50,"currency":"usd","return_url":"https://shop.example.com/r","metadata":{"__proto__":"x","constructor":"y","emoji":"\\ud83d\\ude00"}}';
  const created = await seller.createRaw(body);
  expect(created.status).toBe(200);
  const expected = JSON.parse(body).metadata;
  expect(JSON.stringify(created.body.data.metadata)).toBe(JSON.stringify(expected));
  expect(JSON.stringify((await seller.retrieve(created.body.data.id)).body.data.metadata)).toBe(JSON.stringify(expected));
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

const METADATA_TEXT = 'Metadata keys and values cannot contain U+0000 or lone surrogates';
test.each([
  ['a value', '{"nul":"a\\u0000b"}'],
  ['a key', '{"a\\u0000b":"x"}'],
  ['a value, alone', '{"nul":"\\u0000"}'],
  ['a lone surrogate value', '{"lone":"\\ud800"}'],
  ['a lone surrogate key', '{"\\udc00":1}'],
])('U+0000 or a lone surrogate in metadata (%s) -> 400, nothing stored, and ::jsonb over the table still works', async (_where, metadata) => {
  const body = `{"amount":50,"currency":"usd","return_url":"https://shop.example.com/r","metadata":${metadata}}`;
  const res = await seller.createRaw(body);
  expect([res.status, res.body]).toEqual([400, { success: false, error: METADATA_TEXT }]);
  const rows = await service.em().getConnection().execute(`select count(*)::int as n from payments where metadata::jsonb ? 'nul'`);
  expect(rows).toEqual([{ n: 0 }]);
});

test.each([
  ['past 2^53', '9007199254740993'],
  ['exactly 2^53', '9007199254740992'],
  ['past -2^53', '-9007199254740993'],
  ['a huge float', '1e300'],
])('a metadata number %s, which JSON readers round, -> 400 saying so (it was stored rounded)', async (_what, number) => {
  const body = `{"amount":50,"currency":"usd","return_url":"https://shop.example.com/r","metadata":{"order":${number}}}`;
  const res = await seller.createRaw(body);
  expect([res.status, res.body]).toEqual([400, { success: false, error: 'Metadata numbers must be within 2^53 - 1 either side of zero; send larger ones as strings' }]);
});

test('the largest exact metadata numbers, and big ones sent as strings, are kept as sent', async () => {
  const body = '{"amount":50,"currency":"usd","return_url":"https://shop.example.com/r","metadata":{"max":9007199254740991,"min":-9007199254740991,"big":"9007199254740993"}}';
  const res = await seller.createRaw(body);
  expect(res.status).toBe(200);
  expect(res.body.data.metadata).toEqual({ max: 9007199254740991, min: -9007199254740991, big: '9007199254740993' });
});

test.each(['a@[127.0.0.1]', '"ann lee"@example.com', 'ann(x)@example.com', 'ann;x@example.com', 'ann,bob@example.com', 'ann<x>@example.com'])(
  'customer_email %j, which no receipt could be sent to, -> 400 (it was accepted and its receipt failed)',
  async (email) => {
    const res = await seller.createRaw(JSON.stringify({ ...VALID_PAYMENT, customer_email: email }));
    expect([email, res.status, res.body]).toEqual([email, 400, { success: false, error: 'Customer email must be a valid email address' }]);
  },
);
