import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { exactCents, type Cents } from '../../shared/cents';
import { timeOf } from '../../shared/csv';
import { DAILY_VOLUME_MAX_DAYS, EXPORT_PAGE_ROWS } from '../../shared/limits';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { balanceFigures } from './balance-checkpoints';

/**
 * A seller's balance transactions (docs/dashboard.md, "Balance"): every ledger line that moved the seller's
 * available balance (its `seller_balance` entries: payment credit, fee, refund, refund reversed, the dispute
 * journals, withdrawal hold and release, a live test and its automatic refund), and the payouts of its withdrawals, which move held money to the bank
 * and leave the available balance as it was (amount 0, `paidOut` the money sent). In the ledger's own order (entry
 * id), each with the available balance right after it, computed in the database from the balance checkpoints.
 */
export const BALANCE_LINE_KINDS = [
  'payment', 'fee', 'refund', 'refund_reversed', 'chargeback', 'chargeback_reversed', 'second_chargeback', 'dispute_won',
  'withdrawal_hold', 'withdrawal_release', 'payout', 'test_payment', 'test_refund',
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

export interface BalanceLineFilter {
  /** Lines created at or after. */
  from?: Date | null;
  /** Lines created before. */
  to?: Date | null;
  /** Only these kinds (all when empty or absent). */
  kinds?: readonly string[] | null;
}

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

/** The lines as SQL (an alias `l` over both sources), with the filter's conditions pushed into each source. */
function linesSql(sellerId: string, filter: BalanceLineFilter): { sql: string; params: unknown[] } {
  if (filter.from && filter.to && filter.from >= filter.to) throw domainError('DATE_RANGE_INVALID');
  const kinds = filter.kinds?.length ? [...new Set(filter.kinds)] : null;
  if (kinds?.some((kind) => !(BALANCE_LINE_KINDS as readonly string[]).includes(kind))) throw domainError('BALANCE_LINE_KIND_INVALID', BALANCE_LINE_KINDS.join(', '));
  const conditions: string[] = [];
  const conditionParams: unknown[] = [];
  if (filter.from) {
    conditions.push('e."created_at" >= ?');
    conditionParams.push(filter.from);
  }
  if (filter.to) {
    conditions.push('e."created_at" < ?');
    conditionParams.push(filter.to);
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

function lineOf(row: LineRow, running: Cents): BalanceLine {
  return {
    id: String(row.id),
    kind: row.kind,
    amount: Number(row.amount),
    paidOut: row.paid_out === null ? null : Number(row.paid_out),
    runningBalance: running,
    createdAt: timeOf(row.created_at),
    paymentId: row.payment_id,
    withdrawalId: row.withdrawal_id,
    refundId: row.refund_id,
  };
}

/** One page of a seller's balance transactions, newest first, each with the balance right after it. */
export async function balanceLines(em: EntityManager, sellerId: string, filter: BalanceLineFilter, page?: number | null, limit?: number | null): Promise<Page<BalanceLine>> {
  const request = validPageRequest(page, limit);
  const lines = linesSql(sellerId, filter);
  const window = windowOf(request);
  await balanceFigures(em, [sellerId]);
  const rows = await em.execute<LineRow[]>(`select l.* from ${lines.sql} order by l."id" desc limit ? offset ?`, [...lines.params, window.limit, window.offset]);
  const [{ total }] = await em.execute<{ total: string }[]>(`select count(*) as total from ${lines.sql}`, lines.params);
  const running = await runningBalancesAt(em, sellerId, rows.map((r) => String(r.id)));
  return pageOf(request, rows.map((r) => lineOf(r, running.get(String(r.id))!)), Number(total));
}

/**
 * Every line of the filter, oldest first, handed to `write` one keyset page at a time (EXPORT_PAGE_ROWS rows):
 * the CSV export streams a history of any length in constant memory. The running balance of each page comes
 * from the checkpoints once, then moves line by line (every seller_balance line is in the page when no kind
 * filter hides some; with a filter, each line's balance is read from the checkpoints).
 */
export async function eachBalanceLinePage(em: EntityManager, sellerId: string, filter: BalanceLineFilter, write: (lines: BalanceLine[]) => Promise<void>): Promise<void> {
  const lines = linesSql(sellerId, filter);
  await balanceFigures(em, [sellerId]);
  let after = '0';
  for (;;) {
    const rows = await em.execute<LineRow[]>(`select l.* from ${lines.sql} where l."id" > ? order by l."id" asc limit ?`, [...lines.params, after, EXPORT_PAGE_ROWS]);
    if (rows.length === 0) return;
    const running = await runningBalancesAt(em, sellerId, rows.map((r) => String(r.id)));
    await write(rows.map((r) => lineOf(r, running.get(String(r.id))!)));
    after = String(rows[rows.length - 1].id);
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

/** A calendar month, UTC: "2026-03". */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function monthBounds(month: string): { from: Date; to: Date } {
  const match = MONTH.exec(month ?? '');
  if (!match) throw domainError('MONTH_INVALID');
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { from: new Date(Date.UTC(year, index, 1)), to: new Date(Date.UTC(year, index + 1, 1)) };
}

export interface StatementTotal {
  kind: BalanceLineKind;
  /** Signed cents: the lines' effect on the available balance (0 for payouts). */
  amount: Cents;
  /** Payouts: the cents sent to the bank; 0 for the other kinds. */
  paidOut: Cents;
  count: number;
}

export interface MonthlyStatement {
  month: string;
  from: Date;
  to: Date;
  /** The available balance when the month began: every seller_balance line dated before it. */
  opening: Cents;
  /** opening plus the month's lines: the next month's opening. */
  closing: Cents;
  totals: StatementTotal[];
  lineCount: number;
}

/**
 * A month's statement (UTC): the opening balance (the sum of every seller_balance line dated before the month),
 * the month's lines by kind, and the closing balance, which is the opening plus those lines and, by the same
 * definition, the next month's opening. Lines belong to the month of their `created_at`.
 */
export async function monthlyStatement(em: EntityManager, sellerId: string, month: string): Promise<MonthlyStatement> {
  const { from, to } = monthBounds(month);
  const [{ opening }] = await em.execute<{ opening: string }[]>(
    `select coalesce(sum(e."amount"), 0) as opening from "ledger_entries" e
      where e."seller_id" = ? and e."account" = 'seller_balance' and e."created_at" < ?`,
    [sellerId, from],
  );
  const lines = linesSql(sellerId, { from, to });
  const rows = await em.execute<{ kind: BalanceLineKind; amount: string; paid_out: string; count: string }[]>(
    `select l."kind", coalesce(sum(l."amount"), 0) as amount, coalesce(sum(l."paid_out"), 0) as paid_out, count(*) as count
       from ${lines.sql} group by l."kind"`,
    lines.params,
  );
  const order = (kind: string) => BALANCE_LINE_KINDS.indexOf(kind as BalanceLineKind);
  const totals = rows
    .map((r) => ({ kind: r.kind, amount: exactCents(r.amount), paidOut: exactCents(r.paid_out), count: Number(r.count) }))
    .sort((a, b) => order(a.kind) - order(b.kind));
  const openingCents = exactCents(opening);
  const closing = totals.reduce((sum, t) => sum + t.amount, openingCents);
  return { month, from, to, opening: openingCents, closing, totals, lineCount: totals.reduce((sum, t) => sum + t.count, 0) };
}

/**
 * The month's lines, oldest first, a page at a time, each with the balance right after it counted from the
 * statement's opening (so the last line's balance is the closing). `page` of `limit` lines.
 */
export async function statementLines(em: EntityManager, sellerId: string, statement: MonthlyStatement, page?: number | null, limit?: number | null): Promise<Page<BalanceLine>> {
  const request = validPageRequest(page, limit);
  const lines = linesSql(sellerId, { from: statement.from, to: statement.to });
  const window = windowOf(request);
  const rows = await em.execute<(LineRow & { before: string })[]>(
    `select l.*, coalesce(sum(l."amount") over (order by l."id" rows between unbounded preceding and 1 preceding), 0) as before
       from ${lines.sql} order by l."id" asc limit ? offset ?`,
    [...lines.params, window.limit, window.offset],
  );
  return pageOf(request, rows.map((r) => lineOf(r, statement.opening + exactCents(r.before) + BigInt(Number(r.amount)))), statement.lineCount);
}

/** The statement's lines, oldest first, one keyset page at a time, with the balance after each from the opening. */
export async function eachStatementLinePage(em: EntityManager, sellerId: string, statement: MonthlyStatement, write: (lines: BalanceLine[]) => Promise<void>): Promise<void> {
  const lines = linesSql(sellerId, { from: statement.from, to: statement.to });
  let after = '0';
  let balance = statement.opening;
  for (;;) {
    const rows = await em.execute<LineRow[]>(`select l.* from ${lines.sql} where l."id" > ? order by l."id" asc limit ?`, [...lines.params, after, EXPORT_PAGE_ROWS]);
    if (rows.length === 0) return;
    await write(rows.map((r) => lineOf(r, (balance += BigInt(Number(r.amount))))));
    after = String(rows[rows.length - 1].id);
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

export interface DayVolume {
  /** The UTC day, "2026-03-01". */
  day: string;
  /** Amounts of the payments completed that day, in cents. */
  gross: Cents;
  /** How many payments completed that day. */
  count: number;
}

// Payment states from the lifecycle table (the kernel): the ledger reads payments, it does not import their feature.
const PAYMENT = enumOf(PAYMENT_LIFECYCLE.states);

/**
 * Gross volume and payment count per UTC day for the last `days` days up to `now` (today included), days
 * without payments as zeros: the payments of every shop of the seller that were charged (now completed or
 * refunded; live tests are not sales), by the day they were created. One index range scan per shop (payments_shop_created_idx).
 */
export async function dailyVolume(em: EntityManager, sellerId: string, days: number, now = new Date()): Promise<DayVolume[]> {
  if (!Number.isSafeInteger(days) || days < 1 || days > DAILY_VOLUME_MAX_DAYS) throw domainError('DAYS_INVALID', DAILY_VOLUME_MAX_DAYS);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * 86_400_000;
  const rows = await em.execute<{ day: string; gross: string; count: string }[]>(
    `select to_char(p."created_at" at time zone 'UTC', 'YYYY-MM-DD') as day, sum(p."amount") as gross, count(*) as count
       from "payments" p
      where p."shop_id" in (select s."id" from "shops" s where s."seller_id" = ?)
        and p."created_at" >= ? and p."created_at" < ? and p."status" = any(array[?]::text[]) and not p."test"
      group by 1`,
    [sellerId, new Date(first), new Date(today + 86_400_000), [PAYMENT.COMPLETED, PAYMENT.REFUNDED]],
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, gross: row ? exactCents(row.gross) : 0n, count: row ? Number(row.count) : 0 };
  });
}
