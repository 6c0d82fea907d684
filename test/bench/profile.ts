import fs from 'node:fs';
import { withBenchDatabase } from './children';
import { breakDown, layersPerRequest, profileUnderLoad, type Scenario } from './layers';

/**
 * `npm run bench:profile -- retrieve|create|complete [seconds] [baseline]`: the built service (or, with `baseline`, the
 * plain Express + pg baseline of `npm run bench`) under 50 connections of one REST scenario with `--cpu-prof`, then
 * its CPU per request by layer, and its self time by package and by function. The profile file is kept (its path is
 * printed) for Chrome's DevTools.
 */
async function main() {
  const [scenario = 'retrieve', seconds = '10', subject = 'service'] = process.argv.slice(2);
  if (!['retrieve', 'create', 'complete'].includes(scenario)) throw new Error(`unknown scenario ${scenario}: retrieve, create or complete`);
  const baseline = subject === 'baseline';
  const run = await withBenchDatabase('payments_profile', (databaseUrl) => profileUnderLoad(databaseUrl, scenario as Scenario, Number(seconds), baseline));
  process.stdout.write(`${baseline ? 'baseline' : 'service'} ${scenario}: ${run.rps} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, CPU ${run.cpuMicrosPerRequest} µs per request (profiler on)\n`);
  const { byLayer, byPackage, byFunction } = breakDown(JSON.parse(fs.readFileSync(run.file, 'utf8')), Number(seconds));
  process.stdout.write('\nCPU by layer, per request (idle left out; node internals charged to their caller)\n');
  for (const { layer, microsPerRequest, share } of layersPerRequest(byLayer, run.cpuMicrosPerRequest)) {
    process.stdout.write(`${String(microsPerRequest).padStart(6)} µs  ${(share * 100).toFixed(1).padStart(5)}%  ${layer}\n`);
  }
  const total = [...byPackage.values()].reduce((a, b) => a + b, 0);
  const print = (title: string, map: Map<string, number>, count: number) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      process.stdout.write(`${((micros / total) * 100).toFixed(1).padStart(6)}%  ${key}\n`);
    }
  };
  print('self time by package (node internals charged to their caller)', byPackage, 30);
  print('self time by function', byFunction, 40);
  process.stdout.write(`profile: ${run.file}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
