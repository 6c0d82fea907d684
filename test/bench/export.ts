import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { freePort } from '../support/processes';
import { BENCH_REDIS, UNCAPPED_LIMITS, startChild, withBenchDatabase } from './children';

/** Payments the export bench writes for one seller (BENCH_EXPORT_PAYMENTS for a quicker run). */
const PAYMENTS = Number(process.env.BENCH_EXPORT_PAYMENTS ?? 200_000);

export interface ExportTiming {
  payments: number;
  rows: number;
  bytes: number;
  /** From the request to the first byte of the file. */
  firstByteMs: number;
  /** From the request to the last byte. */
  totalMs: number;
  /** The service process's resident memory before the export, and the most it reached during it (MiB). */
  rssBeforeMiB: number;
  rssPeakMiB: number;
}

/** The resident set size of a process, from /proc (Linux), in MiB. */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * A seller signed up through the dashboard's own operation, PAYMENTS payments written for its shop in bulk (varied
 * customers and metadata), then GET /dashboard/exports/payments.csv with its session, read to the end while the
 * service's resident memory is sampled every 10 ms: the export streams keyset pages, so its peak should not grow
 * with the number of payments.
 */
export async function measureExport(service: string, databaseUrl: string, servicePid: number): Promise<ExportTiming> {
  const document = fs.readFileSync('schema/operations/seller-dashboard.graphql', 'utf8');
  const email = `export-${randomBytes(4).toString('hex')}@example.com`;
  const signUp = await fetch(`${service}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: document, operationName: 'SignUp', variables: { input: { email, password: 'violet-tundra-harbour-42', shopName: 'Export Bench' } } }),
  });
  const answer = (await signUp.json()) as { data?: { signUp: { shop: { id: string } } }; errors?: unknown };
  if (!answer.data) throw new Error(`export bench: sign-up refused ${JSON.stringify(answer.errors)}`);
  const cookie = signUp.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "metadata", "status", "checkout_stage", "created_at", "completed_at", "customer_email", "customer_name")
       select 'pay_' || substr(md5(g::text || $1), 1, 24), $1, 500 + (g % 100000), 'usd', 'https://shop.example.com/thanks',
              json_build_object('order_id', 'ORD-' || g, 'note', case when g % 7 = 0 then '=SUM(A1)' else 'ok, "fine"' end),
              case when g % 10 = 0 then 'failed' else 'completed' end, 'finished',
              now() - make_interval(secs => g), case when g % 10 = 0 then null else now() - make_interval(secs => g) end,
              'customer' || g || '@example.com', 'Customer ' || g
         from generate_series(1, $2::int) g`,
      [answer.data.signUp.shop.id, PAYMENTS],
    );
    await client.query('analyze "payments"');
  } finally {
    await client.end();
  }
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBeforeMiB = rssMiB(servicePid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, rssMiB(servicePid))), 10);
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let newlines = 0;
  try {
    const res = await fetch(`${service}/dashboard/exports/payments.csv`, { headers: { cookie } });
    if (res.status !== 200 || !res.body) throw new Error(`export bench: the export answered ${res.status}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (!firstByteMs) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) newlines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const totalMs = performance.now() - started;
  // Every record ends in CRLF; one quoted note per row holds no line break, so lines = header + rows.
  return { payments: PAYMENTS, rows: newlines - 1, bytes, firstByteMs: Math.round(firstByteMs), totalMs: Math.round(totalMs), rssBeforeMiB: Math.round(rssBeforeMiB), rssPeakMiB: Math.round(rssPeakMiB) };
}

export function describeExport(timing: ExportTiming): string {
  return `export of ${timing.payments} payments (payments.csv, ${timing.rows} rows, ${(timing.bytes / 1024 / 1024).toFixed(1)} MiB): ${timing.totalMs} ms (first byte ${timing.firstByteMs} ms); service memory ${timing.rssBeforeMiB} MiB before, peak ${timing.rssPeakMiB} MiB (+${timing.rssPeakMiB - timing.rssBeforeMiB} MiB)`;
}

/** `node dist/test/bench/export.js`: the export measurement alone, against the built service on a database of its own. */
async function alone(): Promise<void> {
  await withBenchDatabase('payments_export_bench', async (databaseUrl) => {
    const port = await freePort();
    const env = {
      DATABASE_URL: databaseUrl, REDIS_URL: BENCH_REDIS, REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
      PORT: String(port), BASE_URL: 'https://pay.example.test', LOG_LEVEL: 'warn', ...UNCAPPED_LIMITS,
    };
    let child: ChildProcess | undefined;
    try {
      child = await startChild('dist/src/apps/main.js', [], { ...env, LOG_LEVEL: 'info' }, /payment service listening/, undefined, process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []);
      process.stdout.write(`${describeExport(await measureExport(`http://127.0.0.1:${port}`, databaseUrl, child.pid!))}\n`);
    } finally {
      child?.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}

if (require.main === module) {
  alone().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
