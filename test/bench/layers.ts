import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../support/processes';
import { completionLoad } from './card-submission';
import { BENCH_REDIS, UNCAPPED_LIMITS, runToEnd, startChild } from './children';

/**
 * Where a request's CPU goes, layer by layer: the built service (or the plain Express + pg baseline) runs one REST
 * scenario under 50 connections with `--cpu-prof`; its self time in the measured window is summed by the layer of the
 * package charged (node's own frames count for the package that called them) and scaled to the CPU per request read
 * from /proc. `npm run bench -- --json` reports it for each scenario; `npm run bench:profile` prints it with the costliest
 * packages and functions.
 */

export type Scenario = 'create' | 'retrieve' | 'complete';

export interface ProfiledRun {
  /** The `.cpuprofile` file, kept for Chrome's DevTools. */
  file: string;
  rps: number;
  p50: number;
  p99: number;
  /** CPU time of the answering process per request, profiler on. */
  cpuMicrosPerRequest: number;
}

export interface LayerShare {
  layer: string;
  microsPerRequest: number;
  share: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Runs the service (or the baseline) with --cpu-prof under the scenario's load for `seconds` after a 3 s warm-up. */
export async function profileUnderLoad(databaseUrl: string, scenario: Scenario, seconds: number, baseline: boolean): Promise<ProfiledRun> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-profile-'));
  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl, REDIS_URL: BENCH_REDIS, REDIS_KEY_PREFIX: `profile:${randomBytes(4).toString('hex')}:`,
    PORT: String(port), BASE_URL: 'https://pay.example.test', LOG_LEVEL: 'info', ...UNCAPPED_LIMITS,
  };
  const email = `profile-${randomBytes(4).toString('hex')}@example.com`;
  const shop = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', email, '--name', 'Profile'], env));
  const profiled = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const service = baseline
    ? await startChild('dist/test/bench/baseline-server.js', [databaseUrl, shop.shop_id, String(port), '10'], env, /baseline listening/, undefined, profiled)
    : await startChild('dist/src/apps/main.js', [], env, /payment service listening/, undefined, profiled);
  const exited = new Promise((resolve) => service.once('exit', resolve));
  let measured: Omit<ProfiledRun, 'file'>;
  try {
    const origin = `http://127.0.0.1:${port}${baseline ? '' : '/api/v1'}`;
    const headers = { authorization: `Bearer ${shop.api_key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks' });
    const created = await fetch(`${origin}/payments`, { method: 'POST', headers, body }).then((r) => r.json());
    const options = scenario === 'complete'
      ? await completionLoad(`http://127.0.0.1:${port}`, baseline, databaseUrl, shop.shop_id, (seconds + 3) * 1500)
      : scenario === 'create'
        ? { url: `${origin}/payments`, method: 'POST', headers, body }
        : { url: `${origin}/payments/${created.data.id}`, headers };
    await autocannon({ ...options, connections: 50, duration: 3 } as autocannon.Options);
    const cpuBefore = cpuMicros(service.pid!);
    const result = await autocannon({ ...options, connections: 50, duration: seconds } as autocannon.Options);
    measured = {
      rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99,
      cpuMicrosPerRequest: Math.round((cpuMicros(service.pid!) - cpuBefore) / result.requests.total),
    };
  } finally {
    service.kill('SIGTERM'); // the profile is written as it exits
    await exited;
  }
  return { file: path.join(profileDir, fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!), ...measured };
}

/** User + system CPU of a process so far, from /proc (clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Self time of the last `seconds` of a profile (start-up and warm-up left out), by sample node id. */
function selfTimes(profile: CpuProfile, seconds: number): Map<number, number> {
  const elapsed = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at >= elapsed - seconds * 1e6) self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]);
  });
  return self;
}

/** Self time by package charged, by layer and by function, in µs of the measured window. */
export function breakDown(profile: CpuProfile, seconds: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byLayer = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  for (const [id, micros] of selfTimes(profile, seconds)) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const charged = chargedPackage(id, byId, parent);
    add(byPackage, charged, micros);
    add(byLayer, layerOf(charged, byId.get(id)!.callFrame), micros);
    add(byFunction, `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber + 1}`, micros);
  }
  return { byPackage, byFunction, byLayer };
}

/** The busy CPU (idle left out) of each layer, scaled to the CPU per request, costliest first. */
export function layersPerRequest(byLayer: Map<string, number>, cpuMicrosPerRequest: number): LayerShare[] {
  const busy = [...byLayer].filter(([layer]) => layer !== 'idle');
  const total = busy.reduce((sum, [, micros]) => sum + micros, 0);
  return busy
    .sort((a, b) => b[1] - a[1])
    .map(([layer, micros]) => ({ layer, microsPerRequest: Math.round((micros / total) * cpuMicrosPerRequest), share: Number((micros / total).toFixed(3)) }));
}

/** The layer breakdown of one profiled run (the profile file is removed: only `bench:profile` keeps it). */
export async function profiledLayers(databaseUrl: string, scenario: Scenario, seconds: number, baseline: boolean) {
  const run = await profileUnderLoad(databaseUrl, scenario, seconds, baseline);
  const { byLayer } = breakDown(JSON.parse(fs.readFileSync(run.file, 'utf8')), seconds);
  fs.rmSync(path.dirname(run.file), { recursive: true, force: true });
  const { file: _file, ...figures } = run;
  return { ...figures, layers: layersPerRequest(byLayer, run.cpuMicrosPerRequest) };
}

/** Packages by the layer of a request they serve (docs/performance.md, "Where a request's time goes"). */
const LAYERS: [layer: string, packages: RegExp][] = [
  ['HTTP (Node, Express and its parsers)', /^(node: |express|router|body-parser|raw-body|finalhandler|send|on-finished|qs|content-type|iconv-lite|helmet|compression|cookie|type-is|accepts|negotiator|mime|parseurl|ours: platform\/http)/],
  ['rate limit (and its Redis round trip)', /^(rate-limiter-flexible|ioredis|redis-|ours: platform\/rate-limit)/],
  ['REST facade', /^ours: platform\/rest/],
  ['GraphQL execution', /^(graphql|graphql-jit|type-graphql|@apollo|graphql-scalars|dataloader|fast-json-stringify|ours: platform\/graphql)/],
  ['ORM and SQL driver', /^(@mikro-orm|knex|tarn|pg|pg-protocol|pg-pool|pg-types|postgres-|ours: platform\/db)/],
  ['modules (domain rules and stores)', /^ours: modules/],
  ['logging and metrics', /^(pino|sonic-boom|prom-client|ours: platform\/observability|ours: shared\/logger)/],
];

/** A sample's layer: JSON text is serialisation wherever it is called from; else by the package charged. */
function layerOf(charged: string, frame: ProfileNode['callFrame']): string {
  if (!frame.url && (frame.functionName === 'stringify' || frame.functionName === 'parse')) return 'serialisation (JSON)';
  if (charged === '(idle)') return 'idle';
  if (charged === '(garbage collector)') return 'garbage collection';
  return LAYERS.find(([, packages]) => packages.test(charged))?.[0] ?? (charged.startsWith('ours: ') ? `other of ours (${charged.slice(6)})` : charged === '(program)' || charged === 'runMicrotasks' ? 'V8 and native (program, microtasks)' : `other (${charged})`);
}

/** The package of the nearest frame that is not node's own, or node's own when nothing else is on the stack. */
function chargedPackage(id: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): string {
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { url } = byId.get(at)!.callFrame;
    if (url.includes('node_modules/') || url.includes('/dist/')) return packageOf(url, '');
  }
  const { url, functionName } = byId.get(id)!.callFrame;
  return packageOf(url, functionName);
}

function packageOf(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes('/dist/')) return `ours: ${url.replace(/^.*\/dist\/(src\/)?/, '').split('/').slice(0, 2).join('/')}`;
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  return url ? url : functionName; // (idle), (garbage collector), (program)
}
