import { run } from './api';
import { downloadLink, field, h, messageArea, table } from './dom';
import { dayRange, LINE_WORDS, lineWord, money, monthsBetween, monthWords, when } from './format';
import { go, heading, link, type Screen } from './shell';

interface Line {
  id: string;
  kind: string;
  amount: number;
  paidOut: number | null;
  runningBalance: number | string;
  createdAt: string;
  paymentId: string | null;
  withdrawalId: string | null;
  refundId: string | null;
}

interface Pagination { page: number; pages: number; total: number }

/** What a line refers to: the payment (a link to its page) or the withdrawal. */
function referenceOf(line: Line): Node | string {
  if (line.paymentId) return link(line.paymentId, `/dashboard/payments/${encodeURIComponent(line.paymentId)}`, { class: 'mono' });
  if (line.withdrawalId) return link('Withdrawal', '/dashboard/withdrawals');
  return '—';
}

/** The amount column: the line's effect on the balance, or for a payout the money sent (the balance does not move). */
function amountOf(line: Line): Node | string {
  if (line.kind === 'payout' && line.paidOut !== null) return h('span', {}, `${money(line.paidOut)} sent`, h('span', { class: 'muted small-text' }, ' (held at the request)'));
  return h('span', { class: line.amount < 0 ? 'debit' : 'credit' }, money(line.amount));
}

function linesTable(caption: string, lines: Line[]): HTMLElement {
  return table(caption, ['Date', 'Type', 'Amount', 'Balance after', 'For'], lines.map((l) => [when(l.createdAt), lineWord(l.kind), amountOf(l), money(l.runningBalance), referenceOf(l)]));
}

/** The months the seller has statements of (the server's: from the account's first month to the month under way, UTC). */
interface StatementMonths { first: string; last: string }

/**
 * Balance transactions (docs/dashboard.md, "Balance"): every line that moved the available balance, newest first,
 * each with the balance right after it (computed by the server), filtered by date and type in the address
 * (?from=&to=&type=&page=), 25 a page; a CSV of the same filter; and the monthly statements.
 */
export const balanceScreen: Screen = {
  title: 'Balance',
  signedIn: true,
  async render(main, params) {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    const type = params.get('type') ?? '';
    const page = Math.max(1, Number(params.get('page')) || 1);
    const filter: Record<string, unknown> = {};
    Object.assign(filter, dayRange(from, to));
    if (type) filter.kinds = [type];

    heading(main, this.title);
    const typeField = field('Type', { tag: 'select', name: 'type' }, undefined, [['', 'All types'], ...Object.entries(LINE_WORDS)]);
    typeField.control.value = type;
    const fromField = field('From', { type: 'date', name: 'from', value: from });
    const toField = field('To', { type: 'date', name: 'to', value: to });
    const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter balance transactions', action: '/dashboard/balance', method: 'get' },
      typeField.wrap, fromField.wrap, toField.wrap, h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Apply filters'), link('Clear', '/dashboard/balance')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const next = new URLSearchParams();
      for (const [name, control] of [['type', typeField], ['from', fromField], ['to', toField]] as const) if (control.control.value.trim()) next.set(name, control.control.value.trim());
      go(`/dashboard/balance${next.size ? `?${next}` : ''}`);
    });

    const message = messageArea();
    let data: { balance: { available: number | string; statementMonths: StatementMonths; transactions: { items: Line[]; pagination: Pagination } } } | null = null;
    try {
      data = await run('BalanceTransactions', { filter, page });
    } catch (error) {
      message.error((error as Error).message);
    }
    if (data) {
      main.append(h('dl', { class: 'figures' }, h('div', { class: 'figure' }, h('dt', {}, 'Available balance'), h('dd', {}, money(data.balance.available)))));
    }
    // A filter refused leaves the lines unread; the statements are offered all the same.
    const months = data?.balance.statementMonths ?? (await run<{ balance: { statementMonths: StatementMonths } }>('StatementMonths')).balance.statementMonths;
    main.append(statementsSection(months));
    main.append(h('section', { 'aria-labelledby': 'lines-title' }, h('h2', { id: 'lines-title' }, 'Balance transactions'),
      h('p', { class: 'muted' }, 'Every line that moved your available balance, newest first, with the balance right after it. A payout sends money held since you requested the withdrawal, so it leaves the balance as it was.'),
      form, message.element));
    if (!data) return;
    const { items, pagination } = data.balance.transactions;
    const section = main.lastElementChild as HTMLElement;
    if (items.length === 0) {
      section.append(h('p', { class: 'empty' }, Object.keys(filter).length ? 'No balance transaction matches these filters.' : 'No balance transactions yet: they appear when a payment completes.'));
      return;
    }
    const exportQuery = new URLSearchParams();
    if (filter.createdFrom) exportQuery.set('createdFrom', String(filter.createdFrom));
    if (filter.createdTo) exportQuery.set('createdTo', String(filter.createdTo));
    if (type) exportQuery.set('types', type);
    section.append(
      h('div', { class: 'list-head' }, h('p', { class: 'muted' }, `${pagination.total} line${pagination.total === 1 ? '' : 's'}`),
        downloadLink('Download CSV', `/dashboard/exports/balance-transactions.csv${exportQuery.size ? `?${exportQuery}` : ''}`)),
      linesTable('Balance transactions', items),
    );
    const pageLink = (n: number, text: string) => {
      const next = new URLSearchParams(params);
      next.set('page', String(n));
      return link(text, `/dashboard/balance?${next}`);
    };
    section.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
      pagination.page > 1 ? pageLink(pagination.page - 1, 'Previous page') : null,
      h('span', {}, `Page ${pagination.page} of ${Math.max(1, pagination.pages)}`),
      pagination.page < pagination.pages ? pageLink(pagination.page + 1, 'Next page') : null));
  },
};

/** The latest months as links, and any month of the account's in a month field (the server refuses the others too). */
function statementsSection({ first, last }: StatementMonths): HTMLElement {
  const range = first === last ? monthWords(first) : `${monthWords(first)} (your account's first month) to ${monthWords(last)}`;
  const month = field('Month', { type: 'month', name: 'month', value: last, min: first, max: last }, `Calendar months in UTC: ${range}.`);
  const message = messageArea();
  const form = h('form', { class: 'inline-form', novalidate: true, 'aria-label': 'Open a monthly statement' }, month.wrap, h('button', { type: 'submit', class: 'secondary' }, 'Open statement'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = month.control.value.trim();
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) return message.error('Choose a month, written YYYY-MM (for example 2026-03).');
    if (value < first || value > last) return message.error(`Statements run from ${monthWords(first)} to ${monthWords(last)}.`);
    go(`/dashboard/balance/statements/${value}`);
  });
  return h('section', { 'aria-labelledby': 'statements-title' }, h('h2', { id: 'statements-title' }, 'Monthly statements'),
    h('ul', { class: 'month-links' }, ...monthsBetween(first, last).slice(0, 6).map((m) => h('li', {}, link(monthWords(m), `/dashboard/balance/statements/${m}`)))),
    form, message.element);
}

interface Statement {
  month: string;
  from: string;
  to: string;
  opening: number | string;
  closing: number | string;
  lineCount: number;
  totals: { kind: string; amount: number | string; paidOut: number | string; count: number }[];
  lines: { items: Line[]; pagination: Pagination };
}

/** The printable page shows at most this many lines (50 pages of 100); the CSV has them all. */
const PRINTABLE_PAGES = 50;

/**
 * A month's statement (UTC): opening balance, the month's lines by type, the closing balance (opening plus the
 * lines, and the next month's opening), then every line with the balance after it. Print it (the navigation and
 * buttons are not printed) or download it as CSV, or as JSON signed by the service (docs/dashboard.md, "Signed statements").
 */
export const statementScreen: Screen = {
  title: 'Statement',
  signedIn: true,
  async render(main, _params, parts) {
    const month = parts[0] ?? '';
    const first = await run<{ balance: { statement: Statement; statementMonths: StatementMonths } }>('Statement', { month, page: 1 });
    const statement = first.balance.statement;
    const months = first.balance.statementMonths;
    const lines = [...statement.lines.items];
    for (let page = 2; page <= Math.min(statement.lines.pagination.pages, PRINTABLE_PAGES); page += 1) {
      lines.push(...(await run<{ balance: { statement: Statement } }>('Statement', { month, page })).balance.statement.lines.items);
    }
    heading(main, `Statement for ${monthWords(month)}`);
    const [year, index] = month.split('-').map(Number);
    const shift = (by: number) => new Date(Date.UTC(year, index - 1 + by, 1)).toISOString().slice(0, 7);
    main.append(
      h('p', { class: 'no-print' }, link('Back to balance', '/dashboard/balance')),
      h('p', { class: 'muted' }, `The calendar month in UTC: from ${when(statement.from)} to ${when(statement.to)}. Amounts in US dollars.`),
      h('div', { class: 'actions no-print' },
        h('button', { type: 'button', class: 'primary', onclick: () => window.print() }, 'Print'),
        downloadLink('Download CSV', `/dashboard/exports/statement-${month}.csv`),
        downloadLink('Download signed JSON', `/dashboard/exports/statement-${month}.json`),
        shift(-1) >= months.first ? link(`Previous: ${monthWords(shift(-1))}`, `/dashboard/balance/statements/${shift(-1)}`) : null,
        shift(1) <= months.last ? link(`Next: ${monthWords(shift(1))}`, `/dashboard/balance/statements/${shift(1)}`) : null),
      h('section', { 'aria-labelledby': 'summary-title' }, h('h2', { id: 'summary-title' }, 'Summary'),
        table('Summary of the month', ['', 'Lines', 'Amount'], [
          [h('strong', {}, 'Opening balance'), '', h('strong', {}, money(statement.opening))],
          ...statement.totals.map((t) => [lineWord(t.kind), String(t.count), t.kind === 'payout' ? `${money(t.paidOut)} sent (balance unchanged)` : money(t.amount)]),
          [h('strong', {}, 'Closing balance'), String(statement.lineCount), h('strong', {}, money(statement.closing))],
        ])),
      h('section', { 'aria-labelledby': 'statement-lines-title' }, h('h2', { id: 'statement-lines-title' }, 'Lines'),
        lines.length === 0
          ? h('p', { class: 'empty' }, 'Nothing moved your balance this month.')
          : linesTable(`Lines of ${monthWords(month)}`, lines),
        statement.lineCount > lines.length ? h('p', { class: 'warning' }, `This month has ${statement.lineCount} lines; this page shows the first ${lines.length}. The CSV has them all.`) : null),
    );
  },
};
