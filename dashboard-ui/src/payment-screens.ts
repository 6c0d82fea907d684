import { DashboardError, run } from './api';
import { volumeChart, type DayVolume } from './chart';
import { append, copyField, downloadLink, field, h, messageArea, table } from './dom';
import { centsToDollars, dayRange, dollarsToCents, money, refundReasonNote, statusWord, when } from './format';
import { go, heading, link, type Screen } from './shell';

interface PaymentRow {
  id: string;
  amount: number;
  currency: string;
  status: string;
  customerEmail: string | null;
  customerName?: string | null;
  createdAt: string;
  fee?: number;
  netAmount?: number;
  refundedAmount?: number;
  fromPastShop?: boolean;
  /** A live test from the Developers screen: refunded automatically, no fee. */
  test?: boolean;
}

const badge = (status: string) => h('span', { class: `badge ${status.toLowerCase()}` }, statusWord(status));
const pastShopTag = () => h('span', { class: 'tag' }, 'Past shop');
const testTag = () => h('span', { class: 'tag test', title: 'A live test: refunded automatically, no fee' }, 'Test');
const paymentLink = (p: PaymentRow) => [
  link(p.id, `/dashboard/payments/${encodeURIComponent(p.id)}`, { class: 'mono' }),
  p.test ? [' ', testTag()] : null,
  p.fromPastShop ? [' ', pastShopTag()] : null,
].flat();
/** Charged payments carry a fee and a net; a pending or failed one charged nothing. */
const charged = (p: { status: string }) => p.status === 'COMPLETED' || p.status === 'REFUNDED';
/** What the seller keeps of a payment: the amount less the fee, less what went back to the card. */
const keptOf = (p: PaymentRow) => (p.netAmount ?? 0) - (p.refundedAmount ?? 0);

interface Balance {
  available: number | string;
  pendingWithdrawals: number | string;
  paidOut: number | string;
  gross: number | string;
  fees: number | string;
  refunds: number | string;
  dailyVolume: DayVolume[];
}

const RANGES: [string, string][] = [['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days'], ['365', 'Last 365 days']];

/**
 * The seller's money at a glance: the balance, a chart of the last days' volume (the range lives in the address,
 * ?days=), and the latest payments of every shop, past and present, so the totals and the list always agree.
 */
export const overviewScreen: Screen = {
  title: 'Overview',
  signedIn: true,
  async render(main, params) {
    const days = RANGES.some(([value]) => value === params.get('days')) ? Number(params.get('days')) : 30;
    const data = await run<{ currentSeller: { shop: { id: string; name: string } | null }; balance: Balance; searchPayments: { items: PaymentRow[]; pagination: { total: number } } }>('Overview', { days });
    heading(main, this.title);
    if (!data.currentSeller.shop) {
      main.append(h('p', { class: 'warning' }, 'You have no live shop. Your history and balance stay here. ', link('Create a new shop', '/dashboard/developers'), ' to get an API key (shown once) and take payments again.'));
    }
    const b = data.balance;
    const figures: [string, number | string][] = [
      ['Available balance', b.available], ['Pending withdrawals', b.pendingWithdrawals], ['Paid out', b.paidOut],
      ['Gross', b.gross], ['Fees', b.fees], ['Refunds', b.refunds],
    ];
    const range = field('Chart range', { tag: 'select', name: 'days' }, undefined, RANGES);
    range.control.value = String(days);
    const rangeForm = h('form', { class: 'inline-form', action: '/dashboard', method: 'get' }, range.wrap, h('button', { type: 'submit', class: 'secondary' }, 'Show'));
    rangeForm.addEventListener('submit', (event) => {
      event.preventDefault();
      go(`/dashboard?days=${range.control.value}`);
    });
    const none = data.searchPayments.pagination.total === 0;
    main.append(
      h('section', { 'aria-labelledby': 'balance-title' },
        h('h2', { id: 'balance-title' }, 'Balance'),
        h('dl', { class: 'figures' }, ...figures.map(([label, cents]) => h('div', { class: 'figure' }, h('dt', {}, label), h('dd', {}, money(cents))))),
        h('p', {}, link('Balance transactions and statements', '/dashboard/balance')),
      ),
      h('section', { 'aria-labelledby': 'volume-title' },
        h('h2', { id: 'volume-title' }, 'Volume'),
        rangeForm,
        volumeChart(b.dailyVolume, `Gross volume, ${RANGES.find(([value]) => Number(value) === days)![1].toLowerCase()}`),
      ),
      h('section', { 'aria-labelledby': 'latest-title' },
        h('h2', { id: 'latest-title' }, 'Latest payments'),
        none
          ? h('p', { class: 'empty' }, 'No payments yet. Create one over the API with your key; it shows here as soon as it exists.')
          : table('Latest payments', ['Payment', 'Status', 'Amount', 'Customer', 'Created'], data.searchPayments.items.map((p) => [paymentLink(p), badge(p.status), money(p.amount, p.currency), p.customerEmail ?? '—', when(p.createdAt)])),
        h('p', {}, link('All payments', '/dashboard/payments')),
      ),
    );
  },
};

/** The Payments screen's filter as the API takes it (the CSV export takes the same). */
function filterOf(params: URLSearchParams): Record<string, string> {
  const status = params.get('status') ?? '';
  const query = (params.get('q') ?? '').trim();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const filter: Record<string, string> = {};
  if (status) filter.status = status;
  if (query) filter.text = query;
  Object.assign(filter, dayRange(from, to));
  return filter;
}

/** The filter lives in the address (?status=&q=&from=&to=&page=), so a filtered list can be bookmarked and Back works. */
export const paymentsScreen: Screen = {
  title: 'Payments',
  signedIn: true,
  async render(main, params) {
    const status = params.get('status') ?? '';
    const query = (params.get('q') ?? '').trim();
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    const page = Math.max(1, Number(params.get('page')) || 1);
    const filter = filterOf(params);

    heading(main, this.title);
    const statusField = field('Status', { tag: 'select', name: 'status' }, undefined, [['', 'All'], ['PENDING', 'Pending'], ['COMPLETED', 'Completed'], ['FAILED', 'Failed'], ['REFUNDED', 'Refunded']]);
    statusField.control.value = status;
    const search = field('Search', { type: 'search', name: 'q', value: query, spellcheck: 'false' }, 'An id, part of an email or name, or a metadata value');
    const fromField = field('From', { type: 'date', name: 'from', value: from });
    const toField = field('To', { type: 'date', name: 'to', value: to });
    const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter payments', action: '/dashboard/payments', method: 'get' },
      statusField.wrap, search.wrap, fromField.wrap, toField.wrap, h('div', { class: 'filter-actions' }, h('button', { type: 'submit', class: 'primary' }, 'Apply filters'), link('Clear', '/dashboard/payments')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const next = new URLSearchParams();
      for (const [name, control] of [['status', statusField], ['q', search], ['from', fromField], ['to', toField]] as const) if (control.control.value.trim()) next.set(name, control.control.value.trim());
      go(`/dashboard/payments${next.size ? `?${next}` : ''}`);
    });
    main.append(form);

    const message = messageArea();
    main.append(message.element);
    let data: { searchPayments: { items: PaymentRow[]; pagination: { page: number; pages: number; total: number } } };
    try {
      data = await run('Payments', { filter, page });
    } catch (error) {
      // A malformed id or a reversed date range is the filter's problem, not the page's: say so next to it.
      message.error((error as Error).message);
      return;
    }
    const { items, pagination } = data.searchPayments;
    if (items.length === 0) {
      main.append(h('p', { class: 'empty' }, Object.keys(filter).length ? 'No payment matches these filters.' : 'No payments yet.'));
      return;
    }
    const exportQuery = new URLSearchParams(filter);
    main.append(
      h('div', { class: 'list-head' },
        h('p', { class: 'muted' }, `${pagination.total} payment${pagination.total === 1 ? '' : 's'}`),
        downloadLink('Download CSV', `/dashboard/exports/payments.csv${exportQuery.size ? `?${exportQuery}` : ''}`)),
      table('Payments', ['Payment', 'Status', 'Amount', 'Net', 'Customer', 'Created'], items.map((p) => [
        paymentLink(p), badge(p.status), money(p.amount, p.currency),
        charged(p) ? [money(keptOf(p), p.currency), p.refundedAmount ? h('span', { class: 'muted small-text' }, ` after ${money(p.refundedAmount, p.currency)} refunded`) : null] : '—',
        [p.customerEmail, p.customerName].filter(Boolean).join(' · ') || '—', when(p.createdAt),
      ])),
    );
    const pageLink = (n: number, text: string) => {
      const next = new URLSearchParams(params);
      next.set('page', String(n));
      return link(text, `/dashboard/payments?${next}`);
    };
    main.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
      pagination.page > 1 ? pageLink(pagination.page - 1, 'Previous page') : null,
      h('span', {}, `Page ${pagination.page} of ${Math.max(1, pagination.pages)}`),
      pagination.page < pagination.pages ? pageLink(pagination.page + 1, 'Next page') : null,
    ));
  },
};

interface Refund { id: string; amount: number; status: string; reason: string; rejectionReason: string | null; failureReason: string | null; createdAt: string; reviewedAt: string | null; refundedAt: string | null }
interface Dispute { id: string; status: string; amount: number; currency: string; reason: string | null; liability: string; sellerShare: number; openedAt: string; updatedAt: string }

interface PaymentDetail extends PaymentRow {
  customerName: string | null;
  completedAt: string | null;
  checkoutUrl: string;
  metadata: Record<string, string | number | boolean>;
  fee: number;
  netAmount: number;
  refundedAmount: number;
  refundableAmount: number;
  fromPastShop: boolean;
  shop: { id: string; name: string };
  checkoutStage: string;
  threeDsOutcome: string | null;
  failureCode: string | null;
  cardSubmittedAt: string | null;
  failedAt: string | null;
  card: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null;
  refunds: Refund[];
  dispute: Dispute | null;
  webhookDeliveries: { id: string; eventType: string; status: string; attemptCount: number; lastAttemptAt: string | null; nextAttemptAt: string | null; deliveredAt: string | null; failedAt: string | null; attempts: { number: number; httpStatus: number | null; error: string | null; startedAt: string }[] }[];
}

/** The payment's story, in the order it happened, each line with its time, from what is stored (never a card number). */
function story(p: PaymentDetail): [string, string][] {
  const steps: [string, string][] = [[when(p.createdAt), `Created for ${money(p.amount, p.currency)}`]];
  const brand = p.card?.brand ? p.card.brand.charAt(0).toUpperCase() + p.card.brand.slice(1) : 'Card';
  if (p.card) steps.push([when(p.cardSubmittedAt), `Card attempt: ${brand} ending ${p.card.last4 ?? '····'}`]);
  if (p.threeDsOutcome) steps.push([when(p.cardSubmittedAt), `3-D Secure: ${p.threeDsOutcome}`]);
  if (charged(p)) steps.push([when(p.completedAt), p.test ? `Completed: a live test, ${money(p.amount, p.currency)} credited with no fee` : `Completed: ${money(p.netAmount, p.currency)} credited after the ${money(p.fee, p.currency)} fee`]);
  if (p.status === 'FAILED') steps.push([when(p.failedAt), `Failed${p.failureCode ? `: ${p.failureCode.replace(/_/g, ' ')}` : ''}`]);
  if (p.status === 'PENDING') steps.push([when(p.cardSubmittedAt ?? p.createdAt), p.checkoutStage === 'PROCESSING' ? 'Card submitted, waiting for the bank' : 'Waiting for the customer to pay']);
  for (const r of p.refunds) {
    // A live test's refund is nobody's request: the service makes and approves it (docs/dashboard.md, "Live test").
    if (p.test && !r.rejectionReason) steps.push([when(r.createdAt), `Refund of ${money(r.amount, p.currency)} made automatically by the service: “${r.reason}”`]);
    else steps.push([when(r.createdAt), `Refund of ${money(r.amount, p.currency)} requested: “${r.reason}”`]);
    if (r.reviewedAt && !p.test) steps.push([when(r.reviewedAt), `Refund ${statusWord(r.status).toLowerCase()}.${refundReasonNote(r)}`]);
    if (r.refundedAt) steps.push([when(r.refundedAt), `${money(r.amount, p.currency)} refunded to the card`]);
  }
  if (p.dispute) steps.push([when(p.dispute.openedAt), `Disputed by the cardholder: ${money(p.dispute.amount, p.currency)}`]);
  return steps;
}

export const paymentScreen: Screen = {
  title: 'Payment',
  signedIn: true,
  async render(main, _params, parts) {
    const id = decodeURIComponent(parts[0] ?? '');
    await drawPayment(main, id, null);
  },
};

/** Draws the payment's page into `main`; `notice` is said at the top after a refund request. */
async function drawPayment(main: HTMLElement, id: string, notice: string | null): Promise<void> {
  const { payment: p } = await run<{ payment: PaymentDetail }>('PaymentDetail', { id });
  const nodes = document.createElement('div');
  heading(nodes, `Payment ${money(p.amount, p.currency)}`);
  nodes.append(h('p', {}, link('Back to payments', '/dashboard/payments')));
  if (p.test) nodes.append(h('p', { class: 'message' }, testTag(), ' A live test from the Developers screen: it is refunded to the card automatically once paid, and no fee is charged.'));
  if (notice) nodes.append(h('p', { class: 'message', role: 'status' }, notice));
  if (p.fromPastShop) {
    nodes.append(h('p', { class: 'warning' }, h('strong', {}, `From your past shop “${p.shop.name}”. `), 'That shop was deleted: this payment is kept read-only. You can still ask for a refund and follow a dispute here.'));
  }
  const amounts: [string, Node | string][] = charged(p)
    ? [['Amount', money(p.amount, p.currency)], ['Fee', money(p.fee, p.currency)], ['Net', money(p.netAmount - p.refundedAmount, p.currency)],
      ...(p.refundedAmount > 0 ? [['Refunded', `${money(p.refundedAmount, p.currency)} went back to the card${p.test ? '' : ' (the fee is not returned)'}`] as [string, string]] : [])]
    : [['Amount', money(p.amount, p.currency)], ['Fee', p.status === 'FAILED' ? 'None: nothing was charged' : 'None until it is paid']];
  append(nodes, [
    h('dl', { class: 'details' },
      ...([
        ['Payment id', h('span', { class: 'mono' }, p.id)], ['Status', badge(p.status)], ...amounts,
        ['Customer', [p.customerName, p.customerEmail].filter(Boolean).join(' · ') || '—'], ['Shop', p.shop.name],
        ['Created', when(p.createdAt)], ['Completed', when(p.completedAt)],
      ] as [string, Node | string][]).map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))),
    ),
    p.fromPastShop ? null : copyField('Checkout link', p.checkoutUrl, 'Copy checkout link'),
    metadataSection(p.metadata),
    h('section', { 'aria-labelledby': 'story-title' }, h('h2', { id: 'story-title' }, 'Story'),
      h('ol', { class: 'story' }, ...story(p).map(([time, text]) => h('li', {}, h('span', { class: 'muted' }, `${time} — `), text)))),
  ]);
  if (p.dispute) nodes.append(disputeSection(p.dispute, p.currency));
  nodes.append(refundSection(p, main));
  nodes.append(h('section', { 'aria-labelledby': 'deliveries-title' }, h('h2', { id: 'deliveries-title' }, 'Webhook deliveries'),
    p.webhookDeliveries.length === 0
      ? h('p', { class: 'empty' }, 'No webhook deliveries for this payment.')
      : table('Webhook deliveries of this payment', ['Event', 'Status', 'Attempts', 'Last attempt', 'Last answer', 'Next retry'], p.webhookDeliveries.map((d) => {
        const last = d.attempts[d.attempts.length - 1];
        return [d.eventType, statusWord(d.status), String(d.attemptCount), when(d.lastAttemptAt), last ? (last.httpStatus ? `HTTP ${last.httpStatus}` : last.error ?? '—') : '—', d.status === 'PENDING' ? when(d.nextAttemptAt) : '—'];
      }))));
  main.replaceChildren(...nodes.childNodes);
}

function metadataSection(metadata: PaymentDetail['metadata']): HTMLElement | null {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return null;
  return h('section', { 'aria-labelledby': 'metadata-title' }, h('h2', { id: 'metadata-title' }, 'Metadata'),
    h('dl', { class: 'details metadata' }, ...entries.map(([key, value]) => h('div', {}, h('dt', { class: 'mono' }, key), h('dd', { class: 'mono' }, String(value))))));
}

const LIABILITY: Record<string, string> = { SELLER: 'Your balance', PLATFORM: 'Us (you had already refunded it)', SHARED: 'Shared: your balance and us' };

function disputeSection(d: Dispute, currency: string): HTMLElement {
  return h('section', { 'aria-labelledby': 'dispute-title' }, h('h2', { id: 'dispute-title' }, 'Dispute'),
    h('dl', { class: 'details' },
      ...([
        ['Status', badge(d.status)], ['Amount', money(d.amount, currency)], ['Reason', d.reason ?? '—'], ['Borne by', LIABILITY[d.liability] ?? d.liability],
        ['Opened', when(d.openedAt)], ['Last change', when(d.updatedAt)],
      ] as [string, Node | string][]).map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value)))),
    h('p', {}, link('All disputes and what they did to your balance', '/dashboard/disputes')));
}

/**
 * Sellers ask; finance decides (docs/dashboard.md). Any amount up to what remains (open requests count): the
 * form offers the whole remainder in dollars and says what remains; refusals are the API's words, in dollars.
 */
function refundSection(p: PaymentDetail, main: HTMLElement): HTMLElement {
  const section = h('section', { 'aria-labelledby': 'refund-title' }, h('h2', { id: 'refund-title' }, 'Refund'));
  if (p.refunds.length) {
    section.append(table('Refund requests of this payment', ['Amount', 'Status', 'Reason', 'Requested'], p.refunds.map((r) => [
      money(r.amount, p.currency), badge(r.status), `“${r.reason}”${refundReasonNote(r)}`, when(r.createdAt),
    ])));
  }
  if (p.status !== 'COMPLETED' || p.refundableAmount <= 0) {
    const why = p.status === 'REFUNDED' ? 'This payment is fully refunded.'
      : p.status === 'COMPLETED' ? 'Refund requests already cover the whole amount.'
        : 'A refund can be requested once the payment is completed.';
    section.append(h('p', { class: 'empty' }, why));
    return section;
  }
  const remaining = p.refundableAmount;
  section.append(h('p', { id: 'refund-remaining' }, `Refundable: ${money(remaining, p.currency)} of ${money(p.amount, p.currency)}`, p.refunds.length ? ' (requests still open count).' : '.'));
  const amount = field('Amount (USD)', { type: 'text', inputmode: 'decimal', autocomplete: 'off', required: true, value: centsToDollars(remaining) }, `Up to ${money(remaining, p.currency)}. Our 15% fee is not returned.`);
  const reason = field('Reason', { tag: 'textarea', rows: 3, maxlength: 500, required: true }, 'Our support team reviews every request within 24 hours.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, amount.wrap, reason.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Request refund'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    const cents = dollarsToCents(amount.control.value);
    if (cents === null || cents < 1) return message.error('Enter an amount in dollars, for example 25 or 25.50.');
    try {
      const { requestRefund } = await run<{ requestRefund: { amount: number; status: string } }>('RequestRefund', { paymentId: p.id, reason: reason.control.value, amount: cents });
      await drawPayment(main, p.id, `Refund request sent for ${money(requestRefund.amount, p.currency)} (${statusWord(requestRefund.status).toLowerCase()}). Our support team reviews it within 24 hours.`);
      main.querySelector<HTMLElement>('h1')?.focus();
    } catch (error) {
      if (error instanceof DashboardError && error.code === 'SIGNED_OUT') return;
      message.error((error as Error).message);
    }
  });
  section.append(form);
  return section;
}
