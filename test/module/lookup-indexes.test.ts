import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { Shop } from '../../src/modules/identity/shop.entity';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { LEDGER_INVARIANTS } from '../../src/modules/ledger/ledger-invariants';
import { Refund } from '../../src/modules/refunds/refund.entity';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import { useEmptyDatabase } from '../support/databases';
import { useModuleDatabase } from '../support/module-database';

/**
 * The look-ups the service makes by payment, seller or target are served by an index: a missing one goes unnoticed
 * on a test database and reads a production ledger end to end for one payment's page. With sequential scans priced
 * out (`enable_seqscan = off`), PostgreSQL still reads a table whole (a sequential scan, or an index walked end to
 * end) only when no index can answer. check-ledger's invariants are planned over a seeded database of their own, as
 * the planner would over a real ledger: there no invariant reads a table once per row of another.
 */
const db = useModuleDatabase();
const seeded = useEmptyDatabase('payments_lookups');
const big = useModuleDatabase({ databaseUrl: () => seeded.url });

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Parent Relationship'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

async function planOf(em: EntityManager, sql: string): Promise<PlanNode> {
  return em.transactional(async (tx) => {
    await tx.execute('set local enable_seqscan = off');
    const [row] = await tx.execute<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`explain (format json) ${sql}`);
    return row['QUERY PLAN'][0].Plan;
  });
}

/** A sequential scan, or an index walked end to end (no condition on its columns): either reads every row. */
const readsWhole = (node: PlanNode) =>
  node['Node Type'] === 'Seq Scan' || (['Index Scan', 'Index Only Scan'].includes(node['Node Type']) && !node['Index Cond']);

/** The tables a plan reads whole; with `inSubPlan`, only those read once per row of an outer query. */
function wholeReads(node: PlanNode, inSubPlan = false, underSubPlan = false): string[] {
  const here = underSubPlan || node['Parent Relationship'] === 'SubPlan';
  const own = readsWhole(node) && (!inSubPlan || here) ? [node['Relation Name']!] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => wholeReads(child, inSubPlan, here))];
}

const SOME = ['id_a', 'id_b'];
const LOOKUPS: [string, (em: EntityManager) => string][] = [
  ["a payment's ledger entries", (em) => em.createQueryBuilder(LedgerEntry).where({ paymentId: { $in: SOME } }).orderBy({ id: 'asc' }).getFormattedQuery()],
  ["a payment's refunds", (em) => em.createQueryBuilder(Refund).where({ payment: { $in: SOME } }).orderBy({ createdAt: 'asc', id: 'asc' }).getFormattedQuery()],
  ["a seller's shops, deleted ones too", (em) => em.createQueryBuilder(Shop).where({ seller: { $in: SOME } }).getFormattedQuery()],
  ["a seller's live shop", (em) => em.createQueryBuilder(Shop).where({ seller: { $in: SOME }, deletedAt: null }).getFormattedQuery()],
  ["a target's audit entries", (em) => em.createQueryBuilder(AuditEntry).where({ targetId: { $in: SOME } }).orderBy({ id: 'asc' }).getFormattedQuery()],
  ["a payment's webhook deliveries", (em) => em.createQueryBuilder(WebhookDelivery).where({ paymentId: { $in: SOME } }).orderBy({ createdAt: 'asc', id: 'asc' }).getFormattedQuery()],
];

test.each(LOOKUPS)('%s: read through an index', async (_name, sqlOf) => {
  const em = db.em();
  expect(wholeReads(await planOf(em, sqlOf(em)))).toEqual([]);
});

/**
 * 3,000 sellers with a shop each (and a deleted one), 10 completed payments each with their journal, a refund, a
 * withdrawal and a dispute for some: rows written straight in (triggers off), then analysed.
 */
async function seedBigLedger(em: EntityManager): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('set local session_replication_role = replica');
    // 120,000 journal lines can take longer than a request's statement timeout on a loaded machine.
    await tx.execute('set local statement_timeout = 0');
    await tx.execute(`insert into "sellers" ("id", "email") select 'sel_' || g, 'seller-' || g || '@example.com' from generate_series(1, 3000) g`);
    await tx.execute(`insert into "shops" ("id", "seller_id", "name", "webhook_secret", "deleted_at")
      select 'shop_' || g || '_' || k, 'sel_' || g, 'Shop', 'secret', case when k = 2 then now() end from generate_series(1, 3000) g, generate_series(1, 2) k`);
    await tx.execute(`insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "metadata", "status", "checkout_stage", "completed_at")
      select 'pay_' || g || '_' || n, 'shop_' || g || '_1', 1000, 'usd', 'https://shop.example', '{}', 'completed', 'finished', now() from generate_series(1, 3000) g, generate_series(1, 10) n`);
    await tx.execute(`insert into "ledger_entries" ("journal_id", "account", "seller_id", "payment_id", "kind", "amount")
      select 'jrn_' || p."id", v.account, case when v.to_seller then 'sel_' || split_part(p."id", '_', 2) end, p."id", v.kind, v.amount from "payments" p
      cross join (values ('customer_funds', 'payment', -1000, false), ('seller_balance', 'payment', 1000, true), ('seller_balance', 'fee', -150, true), ('fee_revenue', 'fee', 150, false)) v(account, kind, amount, to_seller)`);
    await tx.execute(`insert into "refunds" ("id", "payment_id", "amount", "reason") select 'ref_' || g, 'pay_' || g || '_1', 100, 'asked' from generate_series(1, 1000) g`);
    await tx.execute(`insert into "withdrawals" ("id", "seller_id", "shop_id", "amount") select 'wd_' || g, 'sel_' || g, 'shop_' || g || '_1', 5000 from generate_series(1, 1000) g`);
    await tx.execute(`insert into "disputes" ("id", "payment_id", "amount", "currency", "acquirer_reference") select 'dp_' || g, 'pay_' || g || '_2', 1000, 'usd', 'DP-' || g from generate_series(1, 1000) g`);
  });
  await em.transactional(async (tx) => {
    await tx.execute('set local statement_timeout = 0');
    await tx.execute('analyze');
  });
}

describe('check-ledger over a big ledger', () => {
  beforeAll(() => seedBigLedger(big.em()), 60_000);

  test.each(LEDGER_INVARIANTS.map((invariant) => [invariant.name, invariant.sql]))('%s reads no table once per row of another', async (_name, sql) => {
    expect(wholeReads(await planOf(big.em(), sql), true)).toEqual([]);
  });
});
