import http from 'node:http';
import { startTestService, type TestService } from '../support/test-service';
let service: TestService; let key: string;
beforeAll(async () => { service = await startTestService(); key = (await service.createShop()).apiKey; });
afterAll(() => service.stop());
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  const u = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString(), headers: res.headers }));
    });
    req.on('error', reject); if (body !== undefined) req.write(body); req.end();
  });
}
test('probe', async () => {
  const auth = { Authorization: `Bearer ${key}` };
  const json = { ...auth, 'Content-Type': 'application/json' };
  const base = { amount: 100, currency: 'usd', return_url: 'https://x.example/r' };
  const cases: [string, string, Record<string, string>, string | Buffer | undefined][] = [
    ['GET', '/api/v1/payments/%zz', auth, undefined],
    ['GET', '/api/v1/payments/%E0%A4%A', auth, undefined],
    ['GET', '/api/v1/payments/%00', auth, undefined],
    ['GET', '/api/v1/payments?page=%zz', auth, undefined],
    ['POST', '/api/v1/payments', { ...json, 'Content-Encoding': 'gzip' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Content-Encoding': 'deflate' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Content-Encoding': 'br' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Content-Encoding': 'zzz' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, customer_name: 'a\u0000b' })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, customer_email: 'a\u0000@b.co' })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, return_url: 'https://x.example/\u0000' })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, customer_name: 'a\ud800b' })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, metadata: { a: 'x\ud800' } })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, metadata: { a: 'x\u0000' } })],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, metadata: { '__proto__': 'x', constructor: 'y' } })],
    ['POST', '/api/v1/payments', json, '{"amount":100,"currency":"usd","return_url":"https://x.example/r","metadata":{"__proto__":{"polluted":"yes"}}}'],
    ['POST', '/api/v1/payments', json, '{"amount":100,"currency":"usd","return_url":"https://x.example/r","metadata":{"__proto__":"x"}}'],
    ['POST', '/api/v1/payments', json, '{"amount":100,"currency":"usd","return_url":"https://x.example/r","metadata":' + '{"a":'.repeat(20000) + '1' + '}'.repeat(20000) + '}'],
    ['POST', '/api/v1/payments', json, '[' .repeat(30000) + ']'.repeat(30000)],
    ['POST', '/api/v1/payments', { ...json, 'Idempotency-Key': 'k\u00e9y' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Idempotency-Key': Buffer.from('ключ', 'utf8').toString('latin1') }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Content-Type': 'application/json; charset=utf-16' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json, 'Content-Type': 'application/json; charset=latin1' }, JSON.stringify(base)],
    ['POST', '/api/v1/payments', { ...json }, Buffer.from([0xff, 0xfe, 0x7b])],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, amount: 1e308 })],
    ['POST', '/api/v1/payments', json, '{"amount":1e400,"currency":"usd","return_url":"https://x.example/r"}'],
    ['POST', '/api/v1/payments', json, '{"amount":-0,"currency":"usd","return_url":"https://x.example/r"}'],
    ['POST', '/api/v1/payments', json, '{"amount":9007199254740991,"currency":"usd","return_url":"https://x.example/r"}'],
    ['POST', '/api/v1/payments', json, '{"amount":2147483648,"currency":"usd","return_url":"https://x.example/r"}'],
    ['POST', '/api/v1/payments', json, JSON.stringify({ ...base, metadata: { n: 1e308 } })],
    ['OPTIONS', '/api/v1/payments', auth, undefined],
    ['TRACE', '/api/v1/payments', auth, undefined],
    ['GET', '/api/v1/payments/' + 'a'.repeat(20000), auth, undefined],
  ];
  for (const [m, p, h, b] of cases) {
    const r = await send(m, p, h, b);
    console.log(m, p.slice(0, 60), JSON.stringify(h).slice(-60), String(b ?? '').slice(0, 80), '=>', r.status, r.headers['content-type'], r.text.slice(0, 200));
  }
});
