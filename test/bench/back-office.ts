import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { operationSources } from '../../admin-ui/src/operation-sources';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import { seedPayoutAccount } from '../support/ledger-seed';
import { freePort } from '../support/processes';
import { BENCH_REDIS, UNCAPPED_LIMITS, runToEnd, startChild, withBenchDatabase } from './children';

/**
 * `npm run bench:back-office`: the back office's screens on a service holding BENCH_BACK_OFFICE_PAYMENTS payments
 * (100,000 by default) across 20 shops, 90 days, with e-mails, metadata, refunds waiting, withdrawals and
 * 50,000 audit entries. Each screen's named operation (the very text the console sends) is timed over HTTP as a
 * finance admin; the target is a median under 300 ms. Prints a table (`--json`: JSON); exits 1 past the target.
 */
const PAYMENTS = Number(process.env.BENCH_BACK_OFFICE_PAYMENTS ?? 100_000);
const SHOPS = 20;
const AUDIT_ENTRIES = 50_000;
const SAMPLES = 15;
const TARGET_MS = 300;
const asJson = process.argv.includes('--json');
const log = (line: string) => (asJson ? process.stderr : process.stdout).write(`${line}\n`);

interface Shop {
  shop_id: string;
  seller_id: string;
  api_key: string;
}

interface Timing {
  screen: string;
  operation: string;
  medianMs: number;
  p95Ms: number;
  withinTarget: boolean;
}

async function main() {
  const timings = await withBenchDatabase('back_office_bench', run);
  report(timings);
  if (timings.some((timing) => !timing.withinTarget)) process.exitCode = 1;
}

async function run(databaseUrl: string): Promise<Timing[]> {
  const port = await freePort();
  const env = {
    DATABASE_URL: databaseUrl, REDIS_URL: BENCH_REDIS, REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    PORT: String(port), BASE_URL: 'https://pay.example.test', LOG_LEVEL: 'info', ...UNCAPPED_LIMITS,
  };
  const shops: Shop[] = [];
  for (let i = 0; i < SHOPS; i++) shops.push(JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-shop', '--email', `seller-${i}@bench.example.com`, '--name', `Bench shop ${i}`], env)));
  const support = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-admin', '--email', 'support@bench.example.com', '--role', 'support'], env)).token as string;
  const finance = JSON.parse(await runToEnd('dist/src/apps/cli.js', ['create-admin', '--email', 'finance@bench.example.com', '--role', 'finance'], env)).token as string;
  log(`writing ${PAYMENTS} payments over ${SHOPS} shops and ${AUDIT_ENTRIES} audit entries…`);
  await seed(databaseUrl, shops);
  // Withdrawals need somewhere to be paid, whoever asks.
  for (const shop of shops) await seedPayoutAccount(databaseUrl, shop.shop_id);
  const service = await startChild('dist/src/apps/main.js', [], env, /payment service listening/);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const call = (token: string) => (name: string, variables: Record<string, unknown>) => graphql(origin, token, name, variables);
    await waitingWork(call(support), call(finance), databaseUrl, shops);
    log('timing each screen…');
    return await timeScreens(call(finance), databaseUrl);
  } finally {
    service.kill('SIGTERM');
  }
}

/**
 * Payments in bulk (60 % completed with their ledger lines, 30 % failed, 10 % pending), a third with a
 * customer e-mail and a quarter with an `order_id` in metadata, spread over 90 days; then audit entries.
 */
async function seed(databaseUrl: string, shops: Shop[]): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`create temporary table bench_shops (n int, shop_id text, seller_id text) on commit drop`);
    for (const [n, shop] of shops.entries()) await client.query(`insert into bench_shops values ($1, $2, $3)`, [n, shop.shop_id, shop.seller_id]);
    await client.query(
      `create temporary table bench_payments on commit drop as
       select 'pay_' || substr(md5(random()::text || g::text), 1, 24) as id, s.shop_id, s.seller_id, g,
              (500 + (g * 37) % 20000)::bigint as amount,
              case when (g / ${SHOPS}) % 10 < 6 then 'completed' when (g / ${SHOPS}) % 10 < 9 then 'failed' else 'pending' end as status,
              now() - make_interval(secs => (g * 7919) % (90 * 86400) + 3600) as created_at
         from generate_series(1, $1::int) g join bench_shops s on s.n = g % ${SHOPS}`,
      [PAYMENTS],
    );
    await client.query(
      `insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "metadata", "customer_email", "status", "checkout_stage", "created_at", "completed_at")
       select id, shop_id, amount, 'usd', 'https://shop.example.com/thanks',
              case when g % 4 = 0 then jsonb_build_object('order_id', 'ord-' || g) else '{}'::jsonb end,
              case when g % 3 = 0 then 'customer' || g || '@mail.example.com' end,
              status, case status when 'pending' then 'card_required' else 'finished' end,
              created_at, case when status = 'completed' then created_at end
         from bench_payments`,
    );
    await client.query(
      `insert into "ledger_entries" ("journal_id", "account", "seller_id", "payment_id", "kind", "amount", "created_at")
       select 'jrn_' || substr(md5(p.id), 1, 20), v.account, case when v.to_seller then p.seller_id end, p.id, v.kind,
              case v.kind when 'payment' then p.amount else (p.amount * 15 + 50) / 100 end * v.sign, p.created_at
         from bench_payments p
         cross join (values ('customer_funds', 'payment', -1, false), ('seller_balance', 'payment', 1, true),
                            ('seller_balance', 'fee', -1, true), ('fee_revenue', 'fee', 1, false)) as v(account, kind, sign, to_seller)
        where p.status = 'completed'`,
    );
    await client.query(
      `insert into "audit_log" ("actor", "action", "target_type", "target_id", "reason", "details", "created_at")
       select 'cli', (array['shop.created', 'refund.requested', 'refund.approved', 'withdrawal.approved', 'seller.suspended'])[1 + g % 5],
              'payment', 'pay_' || substr(md5(g::text), 1, 24), 'Seeded for the benchmark', '{}'::jsonb, now() - make_interval(secs => g * 60)
         from generate_series(1, $1::int) g`,
      [AUDIT_ENTRIES],
    );
    await client.query('commit');
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

type Call = (name: string, variables: Record<string, unknown>) => Promise<{ data: Record<string, any>; ms: number }>;

/** Work for the queues, through the API as support and finance would leave it: refund requests and withdrawals. */
async function waitingWork(support: Call, finance: Call, databaseUrl: string, shops: Shop[]): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(`select "id" from "payments" where "status" = 'completed' order by "created_at" desc limit 200`);
  await client.end();
  for (const { id } of rows) await support('RequestRefund', { paymentId: id, reason: 'Returned by the customer', amount: 300 });
  for (const shop of shops) await support('RequestWithdrawal', { shopId: shop.shop_id, amount: 10_000 });
  const queue = await finance('WithdrawalQueue', { limit: 5 });
  for (const withdrawal of queue.data.withdrawals.items) await finance('ApproveWithdrawal', { id: withdrawal.id });
}

/** Each screen's operation with the variables a person's filter would give it. */
async function timeScreens(finance: Call, databaseUrl: string): Promise<Timing[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const payment = (await client.query(`select "id", "shop_id" from "payments" where "status" = 'completed' and "customer_email" is not null order by "created_at" desc limit 1`)).rows[0];
  const refund = (await client.query(`select "id" from "refunds" limit 1`)).rows[0];
  await client.end();
  const monthAgo = new Date(Date.now() - 30 * 86400_000).toISOString();
  const screens: [screen: string, operation: string, variables: Record<string, unknown>][] = [
    ['Home', 'BackOfficeHome', {}],
    ['Refund queue', 'RefundQueue', {}],
    ['Refund queue, largest first', 'RefundQueue', { order: 'LARGEST_FIRST' }],
    ["A refund's page", 'Refund', { id: refund.id }],
    ['Withdrawal queue', 'WithdrawalQueue', {}],
    ['Payments, newest first', 'FindPayments', { filter: {} }],
    ['Payments by e-mail start', 'FindPayments', { filter: { customerEmailPrefix: 'customer12' } }],
    ['Payments by metadata', 'FindPayments', { filter: { metadataKey: 'order_id', metadataValue: 'ord-4444' } }],
    ['Payments of a shop in the last 30 days', 'FindPayments', { filter: { shopId: payment.shop_id, createdFrom: monthAgo } }],
    ['Payments by amount, page 200', 'FindPayments', { filter: { order: 'LARGEST_FIRST' }, page: 200 }],
    ['Payments by free text', 'FindPayments', { filter: { text: 'ord-4444' } }],
    ["A payment's page", 'PaymentStory', { id: payment.id }],
    ['Sellers and shops, by name', 'Shops', { order: 'NAME_A_TO_Z' }],
    ["A shop's page", 'ShopDetails', { id: payment.shop_id }],
    ['Disputes', 'Disputes', { open: true }],
    ['Audit log', 'AuditLog', {}],
    ['Audit log by action, oldest first', 'AuditLog', { action: 'refund.approved', order: 'OLDEST_FIRST' }],
  ];
  const timings: Timing[] = [];
  for (const [screen, operation, variables] of screens) {
    await finance(operation, variables); // warm: first plans and caches
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) samples.push((await finance(operation, variables)).ms);
    samples.sort((a, b) => a - b);
    const medianMs = round(samples[Math.floor(samples.length / 2)]);
    timings.push({ screen, operation, medianMs, p95Ms: round(samples[Math.ceil(samples.length * 0.95) - 1]), withinTarget: medianMs < TARGET_MS });
  }
  return timings;
}

const SOURCES = operationSources(fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations/admin-console.graphql'), 'utf8'));

async function graphql(origin: string, token: string, name: string, variables: Record<string, unknown>) {
  const query = SOURCES.get(name);
  if (!query) throw new Error(`no operation ${name} in schema/operations/admin-console.graphql`);
  const started = performance.now();
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, operationName: name, variables }),
  });
  const body = await response.json();
  const ms = performance.now() - started;
  if (body.errors) throw new Error(`${name}: ${JSON.stringify(body.errors)}`);
  return { data: body.data, ms };
}

function report(timings: Timing[]) {
  if (asJson) {
    process.stdout.write(`${JSON.stringify({ payments: PAYMENTS, auditEntries: AUDIT_ENTRIES, targetMs: TARGET_MS, timings }, null, 2)}\n`);
    return;
  }
  log(`\nBack office on ${PAYMENTS} payments (median and p95 of ${SAMPLES}, target: median under ${TARGET_MS} ms)`);
  for (const t of timings) log(`${t.withinTarget ? 'ok  ' : 'SLOW'} ${t.screen.padEnd(42)} ${t.operation.padEnd(16)} ${String(t.medianMs).padStart(7)} ms  p95 ${String(t.p95Ms).padStart(7)} ms`);
}

const round = (ms: number) => Math.round(ms * 10) / 10;

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
