import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { completionLoad } from './card-submission';
import { fixedRate } from './fixed-rate';
import { measureBalanceAtScale, type BalanceTiming } from './balance';
import { completionRoundTrips } from './round-trips';
import { measureWebhookLag } from './webhook-lag';
import { describeExport, measureExport, type ExportTiming } from './export';
import { measureTracingCost, type TracingCost } from './tracing-cost';
import { profiledLayers, type LayerShare, type Scenario as ProfiledScenario } from './layers';
import { freePort } from '../support/processes';
import { BENCH_REDIS, UNCAPPED_LIMITS, runToEnd, startChild, withBenchDatabase } from './children';

/**
 * `npm run bench`: the service (full path) against a plain Express + pg baseline on the same database,
 * in the same run. Starts everything it needs on real PostgreSQL and Redis (its own database and key
 * prefix), warms up, prints a table; `--json` prints the same numbers as JSON.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Math.max(2, Math.round((SECONDS * 1.5) / ROUNDS));
const POOL_SIZE = 10;
/** Fresh payments for each side's completion rounds: more than either completes in them. */
const COMPLETIONS = ROUNDS * ROUND_SECONDS * 3000;
/** Seconds of each profiled run of the layer breakdown (0: none). */
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 5);
const PROCESSES = Number(process.env.WEB_CONCURRENCY ?? 1);
const asJson = process.argv.includes('--json');
/**
 * Scaling shape (docs/performance.md, "Measuring"; docs/decisions/0011-scaling-out.md): `BENCH_LOAD_CPUS=0
 * BENCH_SERVICE_CPUS=1` pins this process (the load generator) and the service and baseline processes to those
 * cores with `taskset`, so a second service process shows what it adds instead of competing with the generator.
 * PostgreSQL and Redis stay where they are.
 */
const LOAD_CPUS = process.env.BENCH_LOAD_CPUS;
const SERVICE_CPUS = process.env.BENCH_SERVICE_CPUS;

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** CPU time (user + system) of the process answering, per completed request, when its pid is known. */
  cpuMsPerRequest?: number;
  /** CPU time of PostgreSQL's processes (its backends and their helpers) per completed request, beside the above. */
  databaseCpuMsPerRequest?: number;
}

const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

async function main() {
  if (LOAD_CPUS) execFileSync('taskset', ['-pc', LOAD_CPUS, String(process.pid)], { stdio: 'ignore' });
  await withBenchDatabase('payments_bench', run);
}

async function run(databaseUrl: string) {
  const children: ChildProcess[] = [];
  try {
    const servicePort = await freePort();
    const env = {
      DATABASE_URL: databaseUrl, REDIS_URL: BENCH_REDIS, REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
      PORT: String(servicePort), BASE_URL: 'https://pay.example.test', LOG_LEVEL: 'info', DATABASE_POOL_SIZE: String(POOL_SIZE),
      ...UNCAPPED_LIMITS, WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEB_CONCURRENCY: String(PROCESSES),
    };
    const shop = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', 'bench@example.com', '--name', 'Bench'], env));
    children.push(await startChild('dist/src/apps/main.js', [], env, /payment service listening/, SERVICE_CPUS));
    const baselinePort = await freePort();
    children.push(await startChild('dist/test/bench/baseline-server.js', [databaseUrl, shop.shop_id, String(baselinePort), String(POOL_SIZE)], env, /baseline listening/, SERVICE_CPUS));

    const service = `http://127.0.0.1:${servicePort}`;
    const baseline = `http://127.0.0.1:${baselinePort}`;
    const auth = { authorization: `Bearer ${shop.api_key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks' });
    const create = (url: string, headers: Record<string, string>, idempotent: boolean) => ({
      url, method: 'POST' as const, headers, body,
      requests: idempotent ? [{ setupRequest: (req: object) => ({ ...req, headers: { ...headers, 'idempotency-key': randomBytes(12).toString('hex') } }) }] : undefined,
    });
    const ids = await createPayments(service, auth, 2000);
    const retrieve = (origin: string, prefix: string, headers: Record<string, string>) => ({
      url: origin, headers, requests: [{ setupRequest: (req: object) => ({ ...req, path: `${prefix}/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
    });

    log(`warming up (${CONNECTIONS} connections, ${PROCESSES} service process(es))…`);
    await load('warm-up', create(`${service}/api/v1/payments`, auth, true), 3);
    await load('warm-up', create(`${baseline}/payments`, auth, false), 2);

    const rows: Row[] = [];
    const [servicePid, baselinePid] = [children[0].pid!, children[1].pid!];
    rows.push(...(await alternating(
      ['create: full path (POST /api/v1/payments + Idempotency-Key)', create(`${service}/api/v1/payments`, auth, true), servicePid],
      ['create: plain Express + pg INSERT', create(`${baseline}/payments`, { 'content-type': 'application/json' }, false), baselinePid],
    )));
    rows.push(...(await alternating(
      ['retrieve: full path (GET /api/v1/payments/:id)', retrieve(service, '/api/v1/payments', auth), servicePid],
      ['retrieve: plain Express + pg SELECT', retrieve(baseline, '/payments', {}), baselinePid],
    )));
    const createAt = (prefix: string, headers: Record<string, string>) => () => ({
      method: 'POST', path: prefix, headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomBytes(12).toString('hex') }, body,
    });
    const retrieveAt = (prefix: string, headers: Record<string, string>) => () => ({ method: 'GET', path: `${prefix}/${ids[Math.floor(Math.random() * ids.length)]}`, headers });
    const paced = async (name: string, origin: string, next: Parameters<typeof fixedRate>[3]) => ({ name, ...(await fixedRate(origin, 200, SECONDS, next)) });
    rows.push(await paced('create at 200 req/s, open loop (full path)', service, createAt('/api/v1/payments', auth)));
    rows.push(await paced('create at 200 req/s, open loop (plain baseline)', baseline, createAt('/payments', {})));
    rows.push(await paced('retrieve at 200 req/s, open loop (full path)', service, retrieveAt('/api/v1/payments', auth)));
    rows.push(await paced('retrieve at 200 req/s, open loop (plain baseline)', baseline, retrieveAt('/payments', {})));
    const [serviceCompletion, baselineCompletion] = await alternating(
      ['checkout completions: full path (SubmitCard through GraphQL, card 4242…)', await completionLoad(service, false, databaseUrl, shop.shop_id, COMPLETIONS), servicePid],
      ['completion: plain Express + pg (one transaction: UPDATE, ledger INSERT, outbox INSERT)', await completionLoad(baseline, true, databaseUrl, shop.shop_id, COMPLETIONS), baselinePid],
    );
    rows.push(serviceCompletion, baselineCompletion);

    const ratios = { create: rows[0].rps / rows[1].rps, retrieve: rows[2].rps / rows[3].rps, completion: serviceCompletion.rps / baselineCompletion.rps };
    const webhook = await measureWebhookLag(service, auth, shop.shop_id, databaseUrl);
    const { roundTrips } = await completionRoundTrips(env);
    const bigSeller = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', 'big-seller@example.com', '--name', 'Big seller'], env));
    log(`loading ${process.env.BENCH_BALANCE_ENTRIES ?? '1000000'} ledger entries for one seller…`);
    const balance = await measureBalanceAtScale(service, databaseUrl, bigSeller);
    log(`writing ${process.env.BENCH_EXPORT_PAYMENTS ?? '200000'} payments for one seller, then exporting them as CSV…`);
    const exported = await measureExport(service, databaseUrl, children[0].pid!);
    log('tracing off and on: three more service processes…');
    const tracing = await measureTracingCost(env, ids, auth, { connections: CONNECTIONS, rounds: ROUNDS, roundSeconds: ROUND_SECONDS, cpus: SERVICE_CPUS });
    rows.push(tracing.off, tracing.on, tracing.sampled);
    const layers = await layerBreakdowns(databaseUrl);
    report(rows, ratios, webhook, roundTrips, balance, tracing, exported, layers);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type Profiled = Awaited<ReturnType<typeof profiledLayers>>;
type Layers = Partial<Record<ProfiledScenario, { service: Profiled; baseline: Profiled }>>;

/**
 * Each scenario once more, on a service and a baseline started with the CPU profiler (docs/performance.md, "Where a
 * request's time goes"): CPU per request by layer. The profiler costs a few percent, so the throughput rows above are
 * taken without it.
 */
async function layerBreakdowns(databaseUrl: string): Promise<Layers> {
  const layers: Layers = {};
  if (PROFILE_SECONDS <= 0) return layers;
  for (const scenario of ['create', 'retrieve', 'complete'] as const) {
    log(`profiling ${scenario}: the service, then the baseline…`);
    layers[scenario] = {
      service: await profiledLayers(databaseUrl, scenario, PROFILE_SECONDS, false),
      baseline: await profiledLayers(databaseUrl, scenario, PROFILE_SECONDS, true),
    };
  }
  return layers;
}

/** A load and the process answering it (its CPU time is read around each round). */
type Scenario = [name: string, options: Record<string, unknown>, pid: number];

/**
 * The service and its baseline take turns in ROUNDS short rounds (order swapped each round), and each
 * reports its median round: the machine's speed drifts by tens of percent over a minute here, and a
 * ratio of two runs taken at different moments would measure the drift.
 */
async function alternating(service: Scenario, baseline: Scenario): Promise<[Row, Row]> {
  const scenarios = [service, baseline].map(([name, options, pid]) => ({ name, options, pid, rows: [] as Row[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of round % 2 === 0 ? scenarios : [...scenarios].reverse()) {
      scenario.rows.push(await load(scenario.name, scenario.options, ROUND_SECONDS, scenario.pid));
    }
  }
  return [median(scenarios[0].rows), median(scenarios[1].rows)];
}

function median(rows: Row[]): Row {
  const sorted = [...rows].sort((a, b) => a.rps - b.rps);
  const errors = rows.reduce((sum, r) => sum + r.errors, 0);
  return { ...sorted[Math.floor(sorted.length / 2)], errors };
}

async function load(name: string, options: Record<string, unknown>, seconds = SECONDS, pid?: number): Promise<Row> {
  const cpuBefore = pid === undefined ? 0 : cpuMsOf(pid);
  const databaseBefore = postgresCpuMs();
  const result = await autocannon({ connections: CONNECTIONS, duration: seconds, ...options } as autocannon.Options);
  const errors = result.errors + result.timeouts + result.non2xx;
  const perRequest = (ms: number) => (pid === undefined || result.requests.total === 0 ? undefined : Number((ms / result.requests.total).toFixed(3)));
  return {
    name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, errors,
    cpuMsPerRequest: perRequest(pid === undefined ? 0 : cpuMsOf(pid) - cpuBefore),
    databaseCpuMsPerRequest: perRequest(postgresCpuMsSince(databaseBefore)),
  };
}

/**
 * CPU time of PostgreSQL's processes on this machine (the bench's database is local), by pid: what the database spent
 * on a round's statements, parsing and planning included, beside the answering process's own.
 */
function postgresCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      byPid.set(entry, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return byPid;
}

/** What PostgreSQL's processes spent since `before`: a process that ended meanwhile is left out, one that began counts whole. */
function postgresCpuMsSince(before: Map<string, number>): number {
  let spent = 0;
  for (const [pid, ms] of postgresCpuMs()) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** A process's CPU time so far (user + system, its threads included), from /proc: Linux only, as the bench's taskset. */
function cpuMsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are the 14th and 15th fields of the whole line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function createPayments(service: string, auth: Record<string, string>, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const batch = await Promise.all(Array.from({ length: 50 }, () =>
      fetch(`${service}/api/v1/payments`, { method: 'POST', headers: auth, body: JSON.stringify({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks' }) }).then((r) => r.json()),
    ));
    ids.push(...batch.map((b) => b.data.id));
  }
  return ids;
}

function report(
  rows: Row[],
  ratios: { create: number; retrieve: number; completion: number },
  webhook: Awaited<ReturnType<typeof measureWebhookLag>>,
  completionRoundTrips: number,
  balance: BalanceTiming,
  tracing: TracingCost,
  exported: ExportTiming,
  layers: Layers,
) {
  if (asJson) {
    const result = {
      connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, roundSeconds: ROUND_SECONDS, processes: PROCESSES,
      cpus: { load: LOAD_CPUS ?? 'any', service: SERVICE_CPUS ?? 'any' }, rows, ratios, completionRoundTrips,
      balanceMsAt1M: balance.balanceMs, withdrawalMsAt1M: balance.withdrawalMs, balance, webhook,
      export: exported,
      tracing: { onShareOfOff: tracing.on.rps / tracing.off.rps, sampledShareOfOff: tracing.sampled.rps / tracing.off.rps, exports: tracing.exports, exportedBytes: tracing.exportedBytes },
      layers,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  log(`\n${'scenario'.padEnd(62)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('max ms', 8)}${pad('errors', 8)}${pad('CPU ms/req', 12)}${pad('PG CPU ms/req', 14)}`);
  for (const r of rows) log(`${r.name.padEnd(62)}${pad(r.rps, 8)}${pad(r.p50, 8)}${pad(r.p99, 8)}${pad(r.max, 8)}${pad(r.errors, 8)}${pad(r.cpuMsPerRequest ?? '', 12)}${pad(r.databaseCpuMsPerRequest ?? '', 14)}`);
  log(`\nfull path / plain baseline: create ${(ratios.create * 100).toFixed(0)}% (target >= 55%), retrieve ${(ratios.retrieve * 100).toFixed(0)}% (target >= 65%)`);
  log(`completion: ${(ratios.completion * 100).toFixed(0)}% of the plain baseline (target >= 40%), ${completionRoundTrips} database round trips per completion (target <= 5)`);
  log(`balance with ${balance.sellerEntries} seller entries: ${balance.balanceMs} ms, withdrawal request ${balance.withdrawalMs} ms (target < 20 ms; first read, which writes the first checkpoint: ${balance.firstReadMs} ms)`);
  const share = (row: Row) => `${((row.rps / tracing.off.rps) * 100).toFixed(0)}% of its throughput, p99 ${row.p99} ms against ${tracing.off.p99} ms`;
  log(`tracing (retrieve): on, every request: ${share(tracing.on)}; on, 1 in 10 sampled: ${share(tracing.sampled)} (${tracing.exports} OTLP exports, ${Math.round(tracing.exportedBytes / 1024)} KB); off loads no SDK`);
  log(describeExport(exported));
  log(`completion -> webhook delivery: ${webhook ? `p50 ${webhook.p50} ms, p99 ${webhook.p99} ms over ${webhook.count} events (target p99 < 600 ms)` : 'not measured'}`);
  for (const [scenario, { service, baseline }] of Object.entries(layers)) reportLayers(scenario, service.layers, baseline.layers, service.cpuMicrosPerRequest, baseline.cpuMicrosPerRequest);
  log(`${CONNECTIONS} connections (open loop at the fixed rate); throughput rows: median of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s; fixed-rate rows ${SECONDS} s; ${PROCESSES} service process(es), pool ${POOL_SIZE} per process`);
}


/** One scenario's CPU per request by layer, the service beside the baseline (µs, profiler on). */
function reportLayers(scenario: string, service: LayerShare[], baseline: LayerShare[], serviceTotal: number, baselineTotal: number) {
  log(`\n${`CPU per request by layer: ${scenario} (µs, profiler on)`.padEnd(62)}${'service'.padStart(10)}${'baseline'.padStart(10)}`);
  const ofBaseline = new Map(baseline.map((row) => [row.layer, row.microsPerRequest]));
  const names = [...new Set([...service.map((row) => row.layer), ...baseline.map((row) => row.layer)])];
  const ofService = new Map(service.map((row) => [row.layer, row.microsPerRequest]));
  for (const name of names) log(`  ${name.padEnd(60)}${String(ofService.get(name) ?? 0).padStart(10)}${String(ofBaseline.get(name) ?? 0).padStart(10)}`);
  log(`  ${'total'.padEnd(60)}${String(serviceTotal).padStart(10)}${String(baselineTotal).padStart(10)}`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
