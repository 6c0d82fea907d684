import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import type { Cents } from '../../shared/cents';
import { DAILY_VOLUME_MAX_DAYS } from '../../shared/limits';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { balanceFigures } from './balance-checkpoints';
import {
  countLines, linePagesOldestFirst, runningBalancesAt, selectAccountFirstMonth, selectBalanceBefore, selectDailyGross, selectLinesNewestFirst, selectLinesWithSumBefore,
  selectTotalsByKind, type LedgerLine, type LineSelection,
} from './balance-store';
import { BALANCE_LINE_KINDS, type BalanceLine, type BalanceLineKind, type StatementTotal } from './balance-store';
export { BALANCE_LINE_KINDS, type BalanceLine, type BalanceLineKind, type StatementTotal } from './balance-store';

export interface BalanceLineFilter {
  /** Lines created at or after. */
  from?: Date | null;
  /** Lines created before. */
  to?: Date | null;
  /** Only these kinds (all when empty or absent). */
  kinds?: readonly string[] | null;
}

/** The filter checked, its kinds made distinct: which lines the store reads. */
function selectionOf(sellerId: string, filter: BalanceLineFilter): LineSelection {
  if (filter.from && filter.to && filter.from >= filter.to) throw domainError('DATE_RANGE_INVALID');
  const kinds = filter.kinds?.length ? [...new Set(filter.kinds)] : null;
  if (kinds?.some((kind) => !(BALANCE_LINE_KINDS as readonly string[]).includes(kind))) throw domainError('BALANCE_LINE_KIND_INVALID', BALANCE_LINE_KINDS.join(', '));
  return { sellerId, from: filter.from ?? null, to: filter.to ?? null, kinds };
}

function lineOf(line: LedgerLine, running: Cents): BalanceLine {
  return {
    id: line.id,
    kind: line.kind,
    amount: line.amount,
    paidOut: line.paidOut,
    runningBalance: running,
    createdAt: line.createdAt,
    paymentId: line.paymentId,
    withdrawalId: line.withdrawalId,
    refundId: line.refundId,
  };
}

/** One page of a seller's balance transactions, newest first, each with the balance right after it. */
export async function balanceLines(em: EntityManager, sellerId: string, filter: BalanceLineFilter, page?: number | null, limit?: number | null): Promise<Page<BalanceLine>> {
  const request = validPageRequest(page, limit);
  const lines = selectionOf(sellerId, filter);
  const window = windowOf(request);
  await balanceFigures(em, [sellerId]);
  const rows = await selectLinesNewestFirst(em, lines, window.limit, window.offset);
  const total = await countLines(em, lines);
  const running = await runningBalancesAt(em, sellerId, rows.map((r) => r.id));
  return pageOf(request, rows.map((r) => lineOf(r, running.get(r.id)!)), total);
}

/**
 * Every line of the filter, oldest first, handed to `write` one keyset page at a time (EXPORT_PAGE_ROWS rows):
 * the CSV export streams a history of any length in constant memory. The running balance of each page comes
 * from the checkpoints once, then moves line by line (every seller_balance line is in the page when no kind
 * filter hides some; with a filter, each line's balance is read from the checkpoints).
 */
export async function eachBalanceLinePage(em: EntityManager, sellerId: string, filter: BalanceLineFilter, write: (lines: BalanceLine[]) => Promise<void>): Promise<void> {
  const lines = selectionOf(sellerId, filter);
  await balanceFigures(em, [sellerId]);
  for await (const rows of linePagesOldestFirst(em, lines)) {
    const running = await runningBalancesAt(em, sellerId, rows.map((r) => r.id));
    await write(rows.map((r) => lineOf(r, running.get(r.id)!)));
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

const monthOf = (date: Date) => date.toISOString().slice(0, 7);

/**
 * The months a seller has statements of at `now`, "YYYY-MM" (UTC, as statements are): from the account's first
 * month, the UTC month it was created in (no line of it is older), to the month under way.
 */
export async function statementMonths(em: EntityManager, sellerId: string, now = new Date()): Promise<{ first: string; last: string }> {
  const last = monthOf(now);
  const first = (await selectAccountFirstMonth(em, sellerId)) ?? last;
  return { first: first < last ? first : last, last };
}

/**
 * The bounds of a month the seller has a statement of at `now`. Refused while the month has not begun
 * (MONTH_NOT_BEGUN), since a signed statement of a future month would vouch for balances no one has seen, and before
 * the account's first month (MONTH_BEFORE_ACCOUNT), which would vouch for an account that did not exist. The month
 * under way is served, provisional until it ends (docs/dashboard.md, "Signed statements").
 */
export async function statementMonthBounds(em: EntityManager, sellerId: string, month: string, now = new Date()): Promise<{ from: Date; to: Date }> {
  const bounds = monthBounds(month);
  if (bounds.from.getTime() > now.getTime()) throw domainError('MONTH_NOT_BEGUN');
  const { first } = await statementMonths(em, sellerId, now);
  if (month < first) throw domainError('MONTH_BEFORE_ACCOUNT', first);
  return bounds;
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
 * definition, the next month's opening. Lines belong to the month of their `created_at`. Only of the months
 * statementMonthBounds allows at `now`: every path to a statement (GraphQL, CSV, signed JSON) comes here.
 */
export async function monthlyStatement(em: EntityManager, sellerId: string, month: string, now = new Date()): Promise<MonthlyStatement> {
  await statementMonthBounds(em, sellerId, month, now);
  return statementOfMonth(em, sellerId, month);
}

/**
 * The statement of any well-formed month, unchecked against the account's months: for the month before a signed
 * statement, whose closing it chains to (the first month's is the month before the account, closing at zero).
 */
export async function statementOfMonth(em: EntityManager, sellerId: string, month: string): Promise<MonthlyStatement> {
  const { from, to } = monthBounds(month);
  const openingCents = await selectBalanceBefore(em, sellerId, from);
  const lines = selectionOf(sellerId, { from, to });
  const order = (kind: string) => BALANCE_LINE_KINDS.indexOf(kind as BalanceLineKind);
  const totals = (await selectTotalsByKind(em, lines)).sort((a, b) => order(a.kind) - order(b.kind));
  const closing = totals.reduce((sum, t) => sum + t.amount, openingCents);
  return { month, from, to, opening: openingCents, closing, totals, lineCount: totals.reduce((sum, t) => sum + t.count, 0) };
}

/**
 * The month's lines, oldest first, a page at a time, each with the balance right after it counted from the
 * statement's opening (so the last line's balance is the closing). `page` of `limit` lines.
 */
export async function statementLines(em: EntityManager, sellerId: string, statement: MonthlyStatement, page?: number | null, limit?: number | null): Promise<Page<BalanceLine>> {
  const request = validPageRequest(page, limit);
  const lines = selectionOf(sellerId, { from: statement.from, to: statement.to });
  const window = windowOf(request);
  const rows = await selectLinesWithSumBefore(em, lines, window.limit, window.offset);
  return pageOf(request, rows.map((r) => lineOf(r, statement.opening + r.sumBefore + BigInt(r.amount))), statement.lineCount);
}

/** The statement's lines, oldest first, one keyset page at a time, with the balance after each from the opening. */
export async function eachStatementLinePage(em: EntityManager, sellerId: string, statement: MonthlyStatement, write: (lines: BalanceLine[]) => Promise<void>): Promise<void> {
  const lines = selectionOf(sellerId, { from: statement.from, to: statement.to });
  let balance = statement.opening;
  for await (const rows of linePagesOldestFirst(em, lines)) {
    await write(rows.map((r) => lineOf(r, (balance += BigInt(r.amount)))));
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
  const rows = await selectDailyGross(em, sellerId, new Date(first), new Date(today + 86_400_000), [PAYMENT.COMPLETED, PAYMENT.REFUNDED]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, gross: row ? row.gross : 0n, count: row ? row.count : 0 };
  });
}
