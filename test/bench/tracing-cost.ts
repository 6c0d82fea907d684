import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { freePort } from '../support/processes';
import { startChild } from './children';

export interface TracingRow {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export interface TracingCost {
  off: TracingRow;
  on: TracingRow;
  sampled: TracingRow;
  /** Export requests and bytes the collector stand-in received (spans were really sent). */
  exports: number;
  exportedBytes: number;
}

interface Options {
  connections: number;
  rounds: number;
  roundSeconds: number;
  cpus?: string;
}

/**
 * What tracing costs (docs/operations.md, "Tracing"): the same retrieve load on three service processes of the same
 * build and database, taking turns in short rounds (each reports its median round, as the other rows do): tracing
 * off (no SDK loaded), on with every request traced, and on with one trace in ten kept
 * (`OTEL_TRACES_SAMPLER=parentbased_traceidratio`). Spans go with OTLP/HTTP protobuf to a collector stand-in in
 * this process that reads and drops them.
 */
export async function measureTracingCost(env: Record<string, string>, ids: string[], auth: Record<string, string>, options: Options): Promise<TracingCost> {
  let exports = 0;
  let exportedBytes = 0;
  const collector = http.createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (exportedBytes += chunk.length));
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  const children: ChildProcess[] = [];
  try {
    const variants: { key: 'off' | 'on' | 'sampled'; name: string; env: Record<string, string> }[] = [
      { key: 'off', name: 'retrieve: tracing off', env: { OTEL_SDK_DISABLED: 'true' } },
      { key: 'on', name: 'retrieve: tracing on, every request', env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } },
      {
        key: 'sampled', name: 'retrieve: tracing on, 1 in 10 sampled',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
      },
    ];
    const started = [];
    for (const variant of variants) {
      const port = await freePort();
      // WEB_CONCURRENCY=1: one process each, whatever the main rows run with.
      children.push(await startChild('dist/src/apps/main.js', [], { ...env, ...variant.env, PORT: String(port), WEB_CONCURRENCY: '1' }, /payment service listening/, options.cpus));
      started.push({ ...variant, origin: `http://127.0.0.1:${port}`, rows: [] as TracingRow[] });
    }
    const retrieve = (origin: string) => ({
      url: origin, headers: auth, requests: [{ setupRequest: (req: object) => ({ ...req, path: `/api/v1/payments/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
    });
    for (const variant of started) await load(variant.name, retrieve(variant.origin), options.connections, 2);
    for (let round = 0; round < options.rounds; round++) {
      const order = started.slice(round % started.length).concat(started.slice(0, round % started.length));
      for (const variant of order) variant.rows.push(await load(variant.name, retrieve(variant.origin), options.connections, options.roundSeconds));
    }
    const result = Object.fromEntries(started.map((variant) => [variant.key, median(variant.rows)])) as Pick<TracingCost, 'off' | 'on' | 'sampled'>;
    return { ...result, exports, exportedBytes };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    collector.closeAllConnections();
    collector.close();
  }
}

async function load(name: string, options: Record<string, unknown>, connections: number, seconds: number): Promise<TracingRow> {
  const result = await autocannon({ connections, duration: seconds, ...options } as autocannon.Options);
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, errors };
}

function median(rows: TracingRow[]): TracingRow {
  const sorted = [...rows].sort((a, b) => a.rps - b.rps);
  return { ...sorted[Math.floor(sorted.length / 2)], errors: rows.reduce((sum, r) => sum + r.errors, 0) };
}
