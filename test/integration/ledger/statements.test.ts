import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { bookPayout, bookWithdrawalHold, postJournal } from '../../../src/modules/ledger/ledger.service';
import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { Seller } from '../../../src/modules/identity/seller.entity';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { Withdrawal, WithdrawalStatus } from '../../../src/modules/withdrawals/withdrawal.entity';
import { dashboard, signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { lastLoggedErrors, useTestService } from '../../support/test-service';

/**
 * Monthly statements and balance transactions (docs/dashboard.md, "Balance" and "Statements") over a year of a
 * seller's activity. The ledger refuses UPDATE (append-only trigger), so the year is written as balanced journals
 * through postJournal and the journal functions of the ledger service, each dated by the test (`datedJournal`):
 * for every month, opening plus lines equals closing to the cent, each closing is the next opening, every line's
 * running balance is right on every page (filtered or not), in GraphQL and in the CSV.
 */
jest.setTimeout(120_000);
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '100000' }, 'statements');
let seller: Awaited<ReturnType<typeof signUpSeller>>;

beforeAll(async () => {
  seller = await signUpSeller(service.url);
  // Statements run from the account's first month: the account is as old as the year written below.
  await service.em().getConnection().execute('update "sellers" set "created_at" = ? where "id" = ?', [new Date('2025-01-01T00:00:00Z'), seller.sellerId]);
});

interface Written {
  id: number;
  kind: string;
  /** Effect on the seller's available balance. */
  amount: number;
  /** Payout: cents sent to the bank. */
  paidOut: number | null;
  at: Date;
}

/**
 * Writes one journal with `write` (postJournal or a journal function of the ledger service) and dates its entries
 * `at` before the flush: the entries are created by the real write path, only their time is chosen.
 */
async function datedJournal(em: EntityManager, at: Date, write: (tx: EntityManager) => unknown): Promise<LedgerEntry[]> {
  return em.fork().transactional(async (tx) => {
    const before = new Set(tx.getUnitOfWork().getPersistStack());
    await write(tx);
    const entries = [...tx.getUnitOfWork().getPersistStack()].filter((e): e is LedgerEntry => e instanceof LedgerEntry && !before.has(e));
    for (const entry of entries) entry.createdAt = at;
    await tx.flush();
    return entries;
  });
}

/** A year of activity, 2025, plus a few lines in early 2026: payments and fees, refunds, reversals, disputes, withdrawals held, released and paid. */
async function writeYear(): Promise<Written[]> {
  const written: Written[] = [];
  const em = service.em().fork();
  const sellerRef = em.getReference(Seller, seller.sellerId);
  const shop = em.getReference(Shop, seller.shopId);
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const times: Date[] = [];
  for (let month = 0; month < 12; month++) {
    const count = 60 + random(80);
    for (let i = 0; i < count; i++) times.push(new Date(Date.UTC(2025, month, 1 + random(28), random(24), random(60), random(60), random(1000))));
  }
  // Right at the edges: the last millisecond of February and the first of March.
  times.push(new Date(Date.UTC(2025, 1, 28, 23, 59, 59, 999)), new Date(Date.UTC(2025, 2, 1, 0, 0, 0, 0)), new Date(Date.UTC(2026, 0, 3, 10)));
  times.sort((a, b) => a.getTime() - b.getTime());
  const record = (entries: LedgerEntry[], at: Date) => {
    for (const e of entries) {
      if (e.account === LedgerAccount.SELLER_BALANCE) written.push({ id: Number(e.id), kind: e.kind, amount: e.amount, paidOut: null, at });
      if (e.account === LedgerAccount.PAYOUTS) written.push({ id: Number(e.id), kind: e.kind, amount: 0, paidOut: e.amount, at });
    }
  };
  const seller_ = (kind: string, amount: number, other: LedgerAccount) => [
    { account: LedgerAccount.SELLER_BALANCE, kind, amount, seller: sellerRef },
    { account: other, kind, amount: -amount },
  ];
  for (const at of times) {
    const pick = random(10);
    if (pick < 5) {
      const amount = 500 + random(50_000);
      const fee = Math.round((amount * 15) / 100);
      record(await datedJournal(em, at, (tx) => postJournal(tx, {}, [
        { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'payment', amount: -amount },
        { account: LedgerAccount.SELLER_BALANCE, kind: 'payment', amount, seller: sellerRef },
        { account: LedgerAccount.SELLER_BALANCE, kind: 'fee', amount: -fee, seller: sellerRef },
        { account: LedgerAccount.FEE_REVENUE, kind: 'fee', amount: fee },
      ])), at);
    } else if (pick === 5) {
      record(await datedJournal(em, at, (tx) => postJournal(tx, {}, seller_('refund', -(100 + random(3000)), LedgerAccount.CUSTOMER_FUNDS))), at);
    } else if (pick === 6) {
      record(await datedJournal(em, at, (tx) => postJournal(tx, {}, seller_('refund_reversed', 100 + random(500), LedgerAccount.CUSTOMER_FUNDS))), at);
    } else if (pick === 7) {
      const kind = ['chargeback', 'chargeback_reversed', 'second_chargeback', 'dispute_won'][random(4)];
      const amount = (kind === 'chargeback' || kind === 'second_chargeback' ? -1 : 1) * (200 + random(4000));
      record(await datedJournal(em, at, (tx) => postJournal(tx, {}, seller_(kind, amount, LedgerAccount.CUSTOMER_FUNDS))), at);
    } else {
      // A withdrawal: held, then paid out (or released) a little later, each dated.
      const amount = 1000 + random(5000);
      const withdrawal = em.create(Withdrawal, { seller: sellerRef, shop, amount, status: random(2) ? WithdrawalStatus.PAID : WithdrawalStatus.REJECTED, createdAt: at });
      await em.flush();
      em.clear();
      record(await datedJournal(em, at, async (tx) => bookWithdrawalHold(tx, await tx.findOneOrFail(Withdrawal, withdrawal.id), tx.getReference(Seller, seller.sellerId))), at);
      const later = new Date(at.getTime() + 1000);
      if (withdrawal.status === WithdrawalStatus.PAID) record(await datedJournal(em, later, async (tx) => bookPayout(tx, await tx.findOneOrFail(Withdrawal, withdrawal.id))), later);
      else record(await datedJournal(em, later, (tx) => postJournal(tx, { withdrawal: tx.getReference(Withdrawal, withdrawal.id) }, [
        { account: LedgerAccount.WITHDRAWALS_PAYABLE, kind: 'withdrawal_release', amount: -amount },
        { account: LedgerAccount.SELLER_BALANCE, kind: 'withdrawal_release', amount, seller: sellerRef },
      ])), later);
    }
  }
  return written.sort((a, b) => a.id - b.id);
}

let year: Written[];
beforeAll(async () => {
  year = await writeYear();
  // The ledger's order and the dates agree (written in date order): a line's running balance is the sum up to it either way.
}, 120_000);

async function ok(name: string, variables: object, session: DashboardSession = seller.session) {
  const res = await dashboard(service.url, name, variables, session);
  if (res.body.errors) {
    // A 503's cause is in the service's log, not in its answer.
    throw new Error([`${name}: ${JSON.stringify(res.body.errors)}`, ...lastLoggedErrors(service)].join('\n'));
  }
  return res.body.data;
}

const months = [...Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`), '2026-01', '2026-02'];
const inMonth = (month: string, at: Date) => at.toISOString().slice(0, 7) === month;
const before = (month: string, at: Date) => at.toISOString().slice(0, 7) < month;
const sum = (lines: Written[]) => lines.reduce((total, l) => total + l.amount, 0);
/** "12.50" -> 1250, exactly. */
const cents = (text: string) => {
  const match = /^(-?)(\d+)\.(\d\d)$/.exec(text)!;
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};

test('the year written is big enough for checkpoints to matter: more than a few thousand balance lines', () => {
  expect(year.length).toBeGreaterThan(2000);
});

test('every month adds up to the cent: opening plus lines is closing, and each closing is the next month\'s opening', async () => {
  let previousClosing: number | null = null;
  for (const month of months) {
    const { statement } = (await ok('Statement', { month })).balance;
    const lines = year.filter((l) => inMonth(month, l.at));
    const opening = sum(year.filter((l) => before(month, l.at)));
    expect([month, statement.opening]).toEqual([month, opening]);
    expect([month, statement.closing]).toEqual([month, opening + sum(lines)]);
    expect([month, statement.lineCount]).toEqual([month, lines.length]);
    if (previousClosing !== null) expect([month, statement.opening]).toEqual([month, previousClosing]);
    previousClosing = statement.closing;
    // The totals by type are the lines by type.
    const byKind = new Map<string, number>();
    for (const l of lines) byKind.set(l.kind, (byKind.get(l.kind) ?? 0) + l.amount);
    expect(Object.fromEntries(statement.totals.map((t: { kind: string; amount: number }) => [t.kind, t.amount]))).toEqual(Object.fromEntries(byKind));
    // Each line's balance counts from the opening, page after page, and the last is the closing.
    let balance = opening;
    for (let page = 1; page <= statement.lines.pagination.pages; page++) {
      const items = page === 1 ? statement.lines.items : (await ok('Statement', { month, page })).balance.statement.lines.items;
      for (const item of items) {
        balance += item.amount;
        expect([month, item.id, item.runningBalance]).toEqual([month, item.id, balance]);
      }
    }
    expect(balance).toBe(statement.closing);
  }
  // The boundaries: the last millisecond of February is February's; the first of March is March's.
  const february = (await ok('Statement', { month: '2025-02' })).balance.statement;
  const march = (await ok('Statement', { month: '2025-03' })).balance.statement;
  expect(february.to).toBe('2025-03-01T00:00:00.000Z');
  expect(march.from).toBe('2025-03-01T00:00:00.000Z');
});

test("each month's CSV adds up too: opening row, lines with their balance, closing row", async () => {
  for (const month of ['2025-01', '2025-02', '2025-03', '2025-12', '2026-02']) {
    const res = await request(service.url).get(`/dashboard/exports/statement-${month}.csv`).set('Cookie', seller.session.cookie).buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="statement-${month}.csv"`);
    const rows: Record<string, string>[] = parse(res.body as string, { columns: true, skip_empty_lines: true });
    const lines = year.filter((l) => inMonth(month, l.at));
    expect(rows.length).toBe(lines.length + 2);
    const [opening, ...rest] = rows;
    const closing = rest.pop()!;
    expect(opening.type).toBe('opening_balance');
    expect(closing.type).toBe('closing_balance');
    let balance = cents(opening.balance_after);
    expect(balance).toBe(sum(year.filter((l) => before(month, l.at))));
    rest.forEach((row, i) => {
      const line = lines[i];
      expect([row.entry_id, row.type, cents(row.amount), new Date(row.created_at).getTime()]).toEqual([String(line.id), line.kind, line.amount, line.at.getTime()]);
      if (line.paidOut !== null) expect(cents(row.paid_out)).toBe(line.paidOut);
      balance += cents(row.amount);
      expect(cents(row.balance_after)).toBe(balance);
    });
    expect(cents(closing.balance_after)).toBe(balance);
  }
});

test('balance transactions: newest first, the running balance right on every page (from the checkpoints), with and without a type filter', async () => {
  const running = new Map<number, number>();
  let total = 0;
  for (const l of year) running.set(l.id, (total += l.amount));
  const first = (await ok('BalanceTransactions', {})).balance;
  expect(first.available).toBe(total);
  const { pages } = first.transactions.pagination;
  expect(first.transactions.pagination.total).toBe(year.length);
  for (const page of [1, 2, Math.floor(pages / 2), pages - 1, pages]) {
    const items = (await ok('BalanceTransactions', { page })).balance.transactions.items;
    const expected = [...year].reverse().slice((page - 1) * 25, page * 25);
    expect(items.map((i: { id: string; amount: number; runningBalance: number }) => [Number(i.id), i.amount, i.runningBalance])).toEqual(expected.map((l) => [l.id, l.amount, running.get(l.id)]));
  }
  // Only fees, in March 2025: still the whole balance after each line.
  const filter = { kinds: ['fee', 'payout'], createdFrom: '2025-03-01T00:00:00.000Z', createdTo: '2025-04-01T00:00:00.000Z' };
  const fees = (await ok('BalanceTransactions', { filter, page: 2 })).balance.transactions;
  const expected = [...year].reverse().filter((l) => (l.kind === 'fee' || l.kind === 'payout') && inMonth('2025-03', l.at));
  expect(fees.pagination.total).toBe(expected.length);
  expect(fees.items.map((i: { id: string; runningBalance: number; paidOut: number | null }) => [Number(i.id), i.runningBalance, i.paidOut])).toEqual(
    expected.slice(25, 50).map((l) => [l.id, running.get(l.id), l.paidOut]),
  );
  // Refusals in words.
  const bad = await dashboard(service.url, 'BalanceTransactions', { filter: { kinds: ['gift'] } }, seller.session);
  expect(bad.body.errors[0].message).toMatch(/^A balance transaction type is one of: payment, fee, /);
  expect((await dashboard(service.url, 'Statement', { month: '2025-13' }, seller.session)).body.errors[0].extensions.code).toBe('MONTH_INVALID');
});

test('the checkpoints behind it are dense and each matches the entries (check-ledger)', async () => {
  const [{ n }] = await service.em().getConnection().execute('select count(*)::int as n from "ledger_checkpoints" where "seller_id" = ?', [seller.sellerId]);
  expect(n).toBeGreaterThanOrEqual(Math.floor(year.filter((l) => l.paidOut === null).length / 1000));
  const { violations } = await checkLedger(service.em());
  expect(violations.filter((v) => v.invariant === 'checkpoint_matches_entries' && v.subject.startsWith(seller.sellerId))).toEqual([]);
});
