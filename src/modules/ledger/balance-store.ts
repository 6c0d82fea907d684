import type { EntityManager } from '@mikro-orm/postgresql';
import { exactCents, type Cents } from '../../shared/cents';
import { timeOf } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';

/**
 * A seller's balance transactions (docs/dashboard.md, "Balance"): every ledger line that moved the seller's
 * available balance (its `seller_balance` entries: payment credit, fee, refund, refund reversed or failed after success, the dispute
 * journals, withdrawal hold and release, a live test and its automatic refund), and the payouts of its withdrawals, which move held money to the bank
 * and leave the available balance as it was (amount 0, `paidOut` the money sent). In the ledger's own order (entry
 * id), each with the available balance right after it, computed in the database from the balance checkpoints.
 */
export const BALANCE_LINE_KINDS = [
  'payment', 'fee', 'refund', 'refund_reversed', 'refund_failed', 'chargeback', 'chargeback_reversed', 'second_chargeback', 'dispute_won',
  'dispute_share', 'withdrawal_hold', 'withdrawal_release', 'payout', 'test_payment', 'test_refund',
] as const;
export type BalanceLineKind = (typeof BALANCE_LINE_KINDS)[number];

export interface BalanceLine {
  /** The ledger entry's id (a string of digits). */
  id: string;
  kind: BalanceLineKind;
  /** Signed cents by which the line moved the available balance (0 for a payout). */
  amount: number;
  /** A payout: the cents sent to the bank (held since the withdrawal was requested); null otherwise. */
  paidOut: number | null;
  /** The available balance right after this line, in cents. */
  runningBalance: Cents;
  createdAt: Date;
  paymentId: string | null;
  withdrawalId: string | null;
  refundId: string | null;
}

export interface StatementTotal {
  kind: BalanceLineKind;
  /** Signed cents: the lines' effect on the available balance (0 for payouts). */
  amount: Cents;
  /** Payouts: the cents sent to the bank; 0 for the other kinds. */
  paidOut: Cents;
  count: number;
}

/** The sums behind a seller's balance, all in integer cents. */
export interface BalanceFigures {
  /** What may be withdrawn now: every seller_balance entry summed (held withdrawals already taken out). */
  available: Cents;
  /** Lifetime gross of completed payments. */
  gross: Cents;
  /** Lifetime fees (15% of each completed payment). */
  fees: Cents;
  /** Lifetime refunds taken back from the balance (less refunds the acquirer reversed). */
  refunds: Cents;
}

// A seller's balance in SQL: the checkpoints, the ledger lines, the statement sums and the daily volume. Each
// function runs on the EntityManager it is given, so a caller inside a transaction reads and writes in it.

/** The four sums over a set of seller_balance entries `e`, as fee and refund amounts (positive). */
export const FIGURE_SUMS_SQL = `coalesce(sum(e."amount"), 0) as available,
  coalesce(sum(e."amount") filter (where e."kind" = 'payment'), 0) as gross,
  coalesce(-sum(e."amount") filter (where e."kind" = 'fee'), 0) as fees,
  coalesce(-sum(e."amount") filter (where e."kind" in ('refund', 'refund_reversed', 'refund_failed')), 0) as refunds`;

type FigureRow = { seller_id: string; available: string; gross: string; fees: string; refunds: string; tail_entries: string };

/** A seller's figures as of now, and how many entries came after its last checkpoint (what decides a new one). */
export interface CheckpointedFigures {
  sellerId: string;
  figures: BalanceFigures;
  tailEntries: number;
}

/**
 * For each seller, its last checkpoint plus the sums of its entries after it, in one query (an index range scan
 * on (seller_id, id)).
 */
export async function selectCheckpointedFigures(em: EntityManager, sellerIds: readonly string[]): Promise<CheckpointedFigures[]> {
  const rows = await em.execute<FigureRow[]>(
    `select s.seller_id,
            coalesce(c."available", 0) + t.available as available, coalesce(c."gross", 0) + t.gross as gross,
            coalesce(c."fees", 0) + t.fees as fees, coalesce(c."refunds", 0) + t.refunds as refunds, t.tail_entries
       from unnest(array[?]::text[]) as s(seller_id)
       left join lateral (select * from "ledger_checkpoints" k where k."seller_id" = s.seller_id order by k."through_entry_id" desc limit 1) c on true
       cross join lateral (select ${FIGURE_SUMS_SQL}, count(*) as tail_entries from "ledger_entries" e
                            where e."seller_id" = s.seller_id and e."account" = 'seller_balance' and e."id" > coalesce(c."through_entry_id", 0)) t`,
    [sellerIds as string[]],
  );
  return rows.map((r) => ({
    sellerId: r.seller_id,
    figures: { available: exactCents(r.available), gross: exactCents(r.gross), fees: exactCents(r.fees), refunds: exactCents(r.refunds) },
    tailEntries: Number(r.tail_entries),
  }));
}

/**
 * The one statement behind writeCheckpoint (balance-checkpoints.ts, which says why): from the previous checkpoint
 * up to the newest entry older than `settleSeconds`, a checkpoint every `every` entries and one at that entry.
 */
export async function insertCheckpoints(em: EntityManager, sellerId: string, settleSeconds: number, every: number): Promise<void> {
  await em.execute(
    `with prev as (
       select * from "ledger_checkpoints" where "seller_id" = ? order by "through_entry_id" desc limit 1
     ), bound as (
       select max(e."id") as through from "ledger_entries" e
        where e."seller_id" = ? and e."account" = 'seller_balance' and e."id" > coalesce((select "through_entry_id" from prev), 0)
          and e."created_at" < now() - make_interval(secs => ?)
     ), tail as (
       select e."id", b.through, row_number() over w as n,
              sum(e."amount") over w as available,
              coalesce(sum(e."amount") filter (where e."kind" = 'payment') over w, 0) as gross,
              coalesce(-sum(e."amount") filter (where e."kind" = 'fee') over w, 0) as fees,
              coalesce(-sum(e."amount") filter (where e."kind" in ('refund', 'refund_reversed', 'refund_failed')) over w, 0) as refunds
         from bound b
         join "ledger_entries" e on e."seller_id" = ? and e."account" = 'seller_balance' and e."id" > coalesce((select "through_entry_id" from prev), 0) and e."id" <= b.through
       window w as (order by e."id")
     )
     insert into "ledger_checkpoints" ("seller_id", "through_entry_id", "available", "gross", "fees", "refunds")
     select ?, t."id", coalesce(p."available", 0) + t.available, coalesce(p."gross", 0) + t.gross,
            coalesce(p."fees", 0) + t.fees, coalesce(p."refunds", 0) + t.refunds
       from tail t left join prev p on true
      where t.n % ? = 0 or t."id" = t.through
     on conflict do nothing`,
    [sellerId, sellerId, settleSeconds, sellerId, sellerId, every],
  );
}

/**
 * The available balance right after each of the given entry ids: the seller's last checkpoint at or before
 * the id plus its entries after the checkpoint up to the id (at most about CHECKPOINT_EVERY of them). Callers
 * read the figures first (balanceFigures), which brings the checkpoints up to date.
 */
export async function runningBalancesAt(em: EntityManager, sellerId: string, ids: readonly string[]): Promise<Map<string, Cents>> {
  const found = new Map<string, Cents>();
  if (ids.length === 0) return found;
  const rows = await em.execute<{ id: string; running: string }[]>(
    `select x."id"::text as id, coalesce(c."available", 0) + coalesce(t.sum, 0) as running
       from unnest(array[?]::bigint[]) as x("id")
       left join lateral (select k."through_entry_id", k."available" from "ledger_checkpoints" k
                           where k."seller_id" = ? and k."through_entry_id" <= x."id" order by k."through_entry_id" desc limit 1) c on true
       cross join lateral (select sum(e."amount") as sum from "ledger_entries" e
                            where e."seller_id" = ? and e."account" = 'seller_balance'
                              and e."id" > coalesce(c."through_entry_id", 0) and e."id" <= x."id") t`,
    [ids as string[], sellerId, sellerId],
  );
  for (const r of rows) found.set(r.id, exactCents(r.running));
  return found;
}

/** Which of a seller's lines to read: a filter already checked (balance-lines.ts), its kinds distinct. */
export interface LineSelection {
  sellerId: string;
  /** Lines created at or after. */
  from: Date | null;
  /** Lines created before. */
  to: Date | null;
  /** Only these kinds (all when null). */
  kinds: string[] | null;
}

/** A balance line as the ledger holds it: everything but the running balance, which depends on how it is read. */
export type LedgerLine = Omit<BalanceLine, 'runningBalance'>;

interface LineRow {
  id: string;
  kind: BalanceLineKind;
  amount: string;
  paid_out: string | null;
  created_at: Date | string;
  payment_id: string | null;
  withdrawal_id: string | null;
  refund_id: string | null;
}

function ledgerLineOf(row: LineRow): LedgerLine {
  return {
    id: String(row.id),
    kind: row.kind,
    amount: Number(row.amount),
    paidOut: row.paid_out === null ? null : Number(row.paid_out),
    createdAt: timeOf(row.created_at),
    paymentId: row.payment_id,
    withdrawalId: row.withdrawal_id,
    refundId: row.refund_id,
  };
}

/** The lines as SQL (an alias `l` over both sources), with the selection's conditions pushed into each source. */
function linesSql(lines: LineSelection): { sql: string; params: unknown[] } {
  const { sellerId, kinds } = lines;
  const conditions: string[] = [];
  const conditionParams: unknown[] = [];
  if (lines.from) {
    conditions.push('e."created_at" >= ?');
    conditionParams.push(lines.from);
  }
  if (lines.to) {
    conditions.push('e."created_at" < ?');
    conditionParams.push(lines.to);
  }
  if (kinds) {
    conditions.push('e."kind" = any(array[?]::text[])');
    conditionParams.push(kinds);
  }
  const extra = conditions.map((c) => ` and ${c}`).join('');
  const columns = 'e."id", e."kind", e."created_at", e."payment_id", e."withdrawal_id", e."refund_id"';
  const balanceSide = kinds && !kinds.some((kind) => kind !== 'payout') ? null : `select ${columns}, e."amount", null::bigint as "paid_out" from "ledger_entries" e
      where e."seller_id" = ? and e."account" = 'seller_balance'${extra}`;
  const payoutSide = kinds && !kinds.includes('payout') ? null : `select ${columns}, 0::bigint as "amount", e."amount" as "paid_out" from "ledger_entries" e
      where e."account" = 'payouts' and e."withdrawal_id" in (select w."id" from "withdrawals" w where w."seller_id" = ?)${extra}`;
  const sides = [balanceSide, payoutSide].filter((side): side is string => side !== null);
  const params = sides.flatMap(() => [sellerId, ...conditionParams]);
  return { sql: `(${sides.map((side) => `(${side})`).join(' union all ')}) l`, params };
}

/** One offset page of the lines, newest first. */
export async function selectLinesNewestFirst(em: EntityManager, selection: LineSelection, limit: number, offset: number): Promise<LedgerLine[]> {
  const lines = linesSql(selection);
  const rows = await em.execute<LineRow[]>(`select l.* from ${lines.sql} order by l."id" desc limit ? offset ?`, [...lines.params, limit, offset]);
  return rows.map(ledgerLineOf);
}

export async function countLines(em: EntityManager, selection: LineSelection): Promise<number> {
  const lines = linesSql(selection);
  const [{ total }] = await em.execute<{ total: string }[]>(`select count(*) as total from ${lines.sql}`, lines.params);
  return Number(total);
}

/**
 * Every line, oldest first, one keyset page of EXPORT_PAGE_ROWS at a time: an export of any length in constant
 * memory. The next page is read only when the caller asks for it, after it has handled this one.
 */
export async function* linePagesOldestFirst(em: EntityManager, selection: LineSelection): AsyncGenerator<LedgerLine[]> {
  const lines = linesSql(selection);
  let after = '0';
  for (;;) {
    const rows = await em.execute<LineRow[]>(`select l.* from ${lines.sql} where l."id" > ? order by l."id" asc limit ?`, [...lines.params, after, EXPORT_PAGE_ROWS]);
    if (rows.length === 0) return;
    const page = rows.map(ledgerLineOf);
    yield page;
    after = page[page.length - 1].id;
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

/**
 * One offset page of the lines, oldest first, each with `sumBefore`: the sum of the amounts of the selected lines
 * before it, so that a statement can count each line's balance from its opening without reading the earlier pages.
 */
export async function selectLinesWithSumBefore(
  em: EntityManager,
  selection: LineSelection,
  limit: number,
  offset: number,
): Promise<(LedgerLine & { sumBefore: Cents })[]> {
  const lines = linesSql(selection);
  const rows = await em.execute<(LineRow & { before: string })[]>(
    `select l.*, coalesce(sum(l."amount") over (order by l."id" rows between unbounded preceding and 1 preceding), 0) as before
       from ${lines.sql} order by l."id" asc limit ? offset ?`,
    [...lines.params, limit, offset],
  );
  return rows.map((r) => ({ ...ledgerLineOf(r), sumBefore: exactCents(r.before) }));
}

/** The selected lines summed by kind (in no particular order). */
export async function selectTotalsByKind(em: EntityManager, selection: LineSelection): Promise<StatementTotal[]> {
  const lines = linesSql(selection);
  const rows = await em.execute<{ kind: BalanceLineKind; amount: string; paid_out: string; count: string }[]>(
    `select l."kind", coalesce(sum(l."amount"), 0) as amount, coalesce(sum(l."paid_out"), 0) as paid_out, count(*) as count
       from ${lines.sql} group by l."kind"`,
    lines.params,
  );
  return rows.map((r) => ({ kind: r.kind, amount: exactCents(r.amount), paidOut: exactCents(r.paid_out), count: Number(r.count) }));
}

/** The available balance when `before` began: the sum of every seller_balance entry dated earlier. */
export async function selectBalanceBefore(em: EntityManager, sellerId: string, before: Date): Promise<Cents> {
  const [{ opening }] = await em.execute<{ opening: string }[]>(
    `select coalesce(sum(e."amount"), 0) as opening from "ledger_entries" e
      where e."seller_id" = ? and e."account" = 'seller_balance' and e."created_at" < ?`,
    [sellerId, before],
  );
  return exactCents(opening);
}

/** The UTC month ("2026-03") the seller's account was created in: its first statement's; null for no such seller. */
export async function selectAccountFirstMonth(em: EntityManager, sellerId: string): Promise<string | null> {
  const [row] = await em.execute<{ month: string }[]>(
    `select to_char(s."created_at" at time zone 'UTC', 'YYYY-MM') as month from "sellers" s where s."id" = ?`,
    [sellerId],
  );
  return row?.month ?? null;
}

/** A UTC day ("2026-03-01") with payments: their summed amounts and how many. */
export interface DayGross {
  day: string;
  gross: Cents;
  count: number;
}

/**
 * The seller's non-test payments in `statuses` created in [from, to), summed per UTC day; days without any are
 * absent. One index range scan per shop (payments_shop_created_idx).
 */
export async function selectDailyGross(em: EntityManager, sellerId: string, from: Date, to: Date, statuses: readonly string[]): Promise<DayGross[]> {
  const rows = await em.execute<{ day: string; gross: string; count: string }[]>(
    `select to_char(p."created_at" at time zone 'UTC', 'YYYY-MM-DD') as day, sum(p."amount") as gross, count(*) as count
       from "payments" p
      where p."shop_id" in (select s."id" from "shops" s where s."seller_id" = ?)
        and p."created_at" >= ? and p."created_at" < ? and p."status" = any(array[?]::text[]) and not p."test"
      group by 1`,
    [sellerId, from, to, statuses],
  );
  return rows.map((r) => ({ day: r.day, gross: exactCents(r.gross), count: Number(r.count) }));
}
