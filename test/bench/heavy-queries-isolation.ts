import http from 'node:http';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { startTestService, type TestService } from '../support/test-service';

// Issue 13, point 3: one seller's heaviest documents (as many as the caps and its key's budget allow, sent
// concurrently) must not push another shop's REST retrieve p99 past 100 ms. The service runs the production
// defaults (caps, pool of 10); fixtures come from a second instance with its own, larger rate-limit budget.
//
// A measurement, not part of `npm test`: it needs a quiet machine (on one shared by many jobs even the victim's
// baseline p99 passes 100 ms). Run it alone with
//   npx jest --testMatch '**/test/bench/heavy-queries-isolation.ts' test/bench/heavy-queries-isolation.ts
// ONLY_ROOTS=1 sends only the aliased `currentShop` floods. It prints the victim's baseline and attack figures.
let service: TestService;
let fixtures: TestService;

beforeAll(async () => {
  service = await startTestService({ DATABASE_POOL_SIZE: '10' });
  fixtures = await startTestService({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(async () => {
  await service.stop();
  await fixtures.stop();
});

/** The heaviest list document the default caps let through: 20 aliases (the cap), cost 4,020 of 5,000. */
const HEAVY_LISTS = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: payments(limit: 100) { items { id amount currency status metadata customerEmail createdAt shop { id name } } }`).join(' ')} }`;
/** Many cheap root fields: the 3,000-alias `currentShop` flood, as far as the alias cap allows. */
const MANY_ROOTS = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: currentShop { id name }`).join(' ')} }`;

/** POSTs a document and throws the answer away unread: the test's own client must not parse megabytes of JSON on the thread the service shares with it. */
function postDiscarding(url: string, apiKey: string, query: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query }));
  });
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

test("one seller's heavy concurrent queries leave another shop's retrieve p99 under 100 ms", async () => {
  const heavy = await service.createShop();
  const victim = await service.createShop();
  const heavyFixtures = sellerClient(fixtures.url, heavy.apiKey);
  for (let i = 0; i < 100; i++) await heavyFixtures.create({ ...VALID_PAYMENT, metadata: { order: String(i), note: 'x'.repeat(200) } });
  const victimSeller = sellerClient(service.url, victim.apiKey);
  const paymentId = (await sellerClient(fixtures.url, victim.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await victimSeller.retrieve(paymentId); // warm the key cache, as a live shop's would be
  // The victim's own key keeps the default 100 requests a minute: 40 baseline reads and at most 55 under attack.
  const baseline: number[] = [];
  while (baseline.length < 40) {
    const started = process.hrtime.bigint();
    await victimSeller.retrieve(paymentId);
    baseline.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  console.log('BASELINE', JSON.stringify({ n: baseline.length, p50: [...baseline].sort((a, b) => a - b)[baseline.length >> 1], p99: p99(baseline) }));
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  // The service shares this thread: the event loop's delay shows how long requests wait for it.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  // The attack, as far as the caps allow: six concurrent floods of aliased `currentShop` (20, the cap,
  // not 3,000) and six of the heaviest list documents, while the other shop keeps reading its payment.
  const answered: number[] = [];
  const latencies: number[] = [];
  const statuses: number[] = [];
  let attacking = true;
  const attack = Promise.all((process.env.ONLY_ROOTS ? Array(6).fill(MANY_ROOTS) : [...Array(6).fill(MANY_ROOTS), ...Array(6).fill(HEAVY_LISTS)]).map(async (document: string) => {
    answered.push(await postDiscarding(`${service.url}/graphql`, heavy.apiKey, document));
  })).finally(() => (attacking = false));
  while (attacking && latencies.length < 55) {
    const started = process.hrtime.bigint();
    const res = await victimSeller.retrieve(paymentId);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    statuses.push(res.status);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await attack;
  loop.disable();
  console.log('LOOP max ms', loop.max / 1e6, 'p99', loop.percentile(99) / 1e6, 'mean', loop.mean / 1e6);

  // eslint-disable-next-line no-console
  console.log(JSON.stringify({ n: latencies.length, p50: latencies.sort((a, b) => a - b)[latencies.length >> 1], p99: p99(latencies), max: Math.max(...latencies), bad: statuses.filter((s) => s !== 200), heavy: answered.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}) }));
  expect(statuses.every((s) => s === 200)).toBe(true);
  // The attack did run: its key's minute of heavy documents answered, then 429s.
  expect(answered.filter((s) => s === 200).length).toBeGreaterThan(0);
  expect(answered.filter((s) => s === 429).length).toBeGreaterThan(0);
  expect(p99(latencies)).toBeLessThan(100);
}, 120_000);
