import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { freePort } from '../support/processes';
import { BENCH_REDIS, runToEnd, startChild, withBenchDatabase } from './children';

/**
 * `npm run bench:isolation`: one seller's heaviest documents, sent at once, must not push
 * another shop's REST retrieve p99 past 100 ms. The built service runs as its own process with the production
 * defaults (caps, budgets, pool of 10); fixtures are made through a second instance counting in rate-limit buckets of its own.
 * The attack is the issue's: six aliased `currentShop` floods and six of the heaviest list documents the caps
 * let through, while the other shop keeps reading its payment (inside its own 100-a-minute budget).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_P99_MS = 100;

const HEAVY_LISTS = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: payments(limit: 100) { items { id amount currency status metadata customerEmail createdAt } }`).join(' ')} }`;
const MANY_ROOTS = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: currentShop { id name }`).join(' ')} }`;

interface Shop { shop_id: string; api_key: string }

async function main() {
  await withBenchDatabase('payments_isolation', run);
}

async function run(databaseUrl: string) {
  const children: ChildProcess[] = [];
  try {
    const base = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: BENCH_REDIS, REDIS_KEY_PREFIX: `isolation:${randomBytes(4).toString('hex')}:`, BASE_URL: 'https://pay.example.test', LOG_LEVEL: 'info',
    };
    const [servicePort, fixturesPort] = [await freePort(), await freePort()];
    const heavy: Shop = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', 'heavy@example.com', '--name', 'Heavy'], base));
    const victim: Shop = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', 'victim@example.com', '--name', 'Victim'], base));
    children.push(await startChild('dist/src/apps/main.js', [], { ...base, PORT: String(servicePort) }, /payment service listening/));
    children.push(await startChild('dist/src/apps/main.js', [], { ...base, PORT: String(fixturesPort), REDIS_KEY_PREFIX: `${base.REDIS_KEY_PREFIX}fixtures:` }, /payment service listening/));
    const fixtures = `http://127.0.0.1:${fixturesPort}`;
    for (let i = 0; i < 100; i++) await createPayment(fixtures, heavy.api_key, { order: String(i), note: 'x'.repeat(200) });
    const service = `http://127.0.0.1:${servicePort}`;
    const results = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A fresh victim payment and a fresh minute for both keys each round (a new key's budget is its own).
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 61_000));
      results.push(await attackRound(service, heavy.api_key, victim.api_key, await createPayment(fixtures, victim.api_key, {})));
    }
    report(results);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  }
}

async function attackRound(service: string, heavyKey: string, victimKey: string, paymentId: string) {
  const read = () => timed(() => request(`${service}/api/v1/payments/${paymentId}`, victimKey));
  await read(); // the victim's key is in the credential cache, as a live shop's would be
  const baseline: number[] = [];
  for (let i = 0; i < 30; i++) {
    baseline.push((await read()).ms);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answered: number[] = [];
  const underAttack: number[] = [];
  const refused: number[] = [];
  let attacking = true;
  const documents = [...Array(6).fill(MANY_ROOTS), ...Array(6).fill(HEAVY_LISTS)];
  const attack = Promise.all(documents.map(async (query) => answered.push(await request(`${service}/graphql`, heavyKey, JSON.stringify({ query }))))).finally(() => (attacking = false));
  while (attacking && underAttack.length < 60) {
    const { ms, status } = await read();
    underAttack.push(ms);
    if (status !== 200) refused.push(status);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await attack;
  return { baseline: percentiles(baseline), underAttack: percentiles(underAttack), refused, heavyAnswers: countBy(answered) };
}

/** Sends a request and drains the answer unread: the attacker's own client must not spend the bench's CPU parsing it. */
function request(url: string, apiKey: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const req = http.request(url, { method: body ? 'POST' : 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function timed(run: () => Promise<number>): Promise<{ ms: number; status: number }> {
  const started = process.hrtime.bigint();
  const status = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status };
}

async function createPayment(origin: string, apiKey: string, metadata: Record<string, string>): Promise<string> {
  const res = await fetch(`${origin}/api/v1/payments`, {
    method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks', metadata }),
  });
  if (!res.ok) throw new Error(`fixture create answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)].toFixed(1));
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: Number(sorted[sorted.length - 1].toFixed(1)) };
}

const countBy = (values: number[]) => values.reduce<Record<number, number>>((m, v) => ({ ...m, [v]: (m[v] ?? 0) + 1 }), {});

function report(results: Awaited<ReturnType<typeof attackRound>>[]) {
  if (process.argv.includes('--json')) return void process.stdout.write(`${JSON.stringify({ targetP99Ms: TARGET_P99_MS, rounds: results })}\n`);
  for (const [i, r] of results.entries()) {
    process.stdout.write(`round ${i + 1}: victim retrieve alone p50 ${r.baseline.p50} ms p99 ${r.baseline.p99} ms; under attack (n=${r.underAttack.n}) p50 ${r.underAttack.p50} ms p99 ${r.underAttack.p99} ms max ${r.underAttack.max} ms; victim refused ${r.refused.length}; attacker answers ${JSON.stringify(r.heavyAnswers)}\n`);
  }
  const worst = Math.max(...results.map((r) => r.underAttack.p99));
  process.stdout.write(`worst p99 under attack ${worst} ms: target < ${TARGET_P99_MS} ms ${worst < TARGET_P99_MS ? 'met' : 'MISSED'}\n`);
}


main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
