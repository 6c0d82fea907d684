import { DashboardError, run } from './api';
import { copyField, field, h, messageArea, table } from './dom';
import { money, refundReasonNote, statusWord, when } from './format';
import { go, heading, link, type Screen } from './shell';

interface PaymentRow {
  id: string;
  amount: number;
  currency: string;
  status: string;
  customerEmail: string | null;
  createdAt: string;
  fee?: number;
  netAmount?: number;
}

const badge = (status: string) => h('span', { class: `badge ${status.toLowerCase()}` }, statusWord(status));
const paymentLink = (p: PaymentRow) => link(p.id, `/dashboard/payments/${encodeURIComponent(p.id)}`, { class: 'mono' });

interface Balance {
  available: number | string;
  pendingWithdrawals: number | string;
  paidOut: number | string;
  gross: number | string;
  fees: number | string;
  refunds: number | string;
}

export const overviewScreen: Screen = {
  title: 'Overview',
  signedIn: true,
  async render(main) {
    const data = await run<{ balance: Balance; searchPayments: { items: PaymentRow[] } }>('Overview').catch((error: unknown) => {
      // No live shop (deleted by the seller, or the account taken back from a squatter): say where to make one.
      if (error instanceof DashboardError && error.code === 'SHOP_NOT_FOUND') return null;
      throw error;
    });
    heading(main, this.title);
    if (!data) {
      main.append(h('p', {}, 'You have no shop. ', link('Create a new shop', '/dashboard/developers'), ' to get an API key (shown once) and take payments again.'));
      return;
    }
    const b = data.balance;
    const figures: [string, number | string][] = [
      ['Available balance', b.available], ['Pending withdrawals', b.pendingWithdrawals], ['Paid out', b.paidOut],
      ['Gross', b.gross], ['Fees', b.fees], ['Refunds', b.refunds],
    ];
    main.append(
      h('section', { 'aria-labelledby': 'balance-title' },
        h('h2', { id: 'balance-title' }, 'Balance'),
        h('dl', { class: 'figures' }, ...figures.map(([label, cents]) => h('div', { class: 'figure' }, h('dt', {}, label), h('dd', {}, money(cents))))),
      ),
      h('section', { 'aria-labelledby': 'latest-title' },
        h('h2', { id: 'latest-title' }, 'Latest payments'),
        data.searchPayments.items.length === 0
          ? h('p', { class: 'empty' }, 'No payments yet. Create one over the API with your key; it shows here as soon as it exists.')
          : table('Latest payments', ['Payment', 'Amount', 'Status', 'Customer', 'Created'], data.searchPayments.items.map((p) => [paymentLink(p), money(p.amount, p.currency), badge(p.status), p.customerEmail ?? '—', when(p.createdAt)])),
        h('p', {}, link('All payments', '/dashboard/payments')),
      ),
    );
  },
};

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
    const filter: Record<string, string> = {};
    if (status) filter.status = status;
    if (query) filter[query.includes('@') ? 'customerEmail' : 'id'] = query;
    if (from) filter.createdFrom = new Date(`${from}T00:00:00`).toISOString();
    if (to) filter.createdTo = new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString();

    heading(main, this.title);
    const statusField = field('Status', { tag: 'select', name: 'status' }, undefined, [['', 'All'], ['PENDING', 'Pending'], ['COMPLETED', 'Completed'], ['FAILED', 'Failed'], ['REFUNDED', 'Refunded']]);
    statusField.control.value = status;
    const search = field('Search', { type: 'search', name: 'q', value: query, spellcheck: 'false' }, 'A payment id or the customer’s email');
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
    main.append(
      h('p', { class: 'muted' }, `${pagination.total} payment${pagination.total === 1 ? '' : 's'}`),
      table('Payments', ['Payment', 'Amount', 'Fee', 'Net', 'Status', 'Customer', 'Created'], items.map((p) => [paymentLink(p), money(p.amount, p.currency), money(p.fee ?? 0, p.currency), money(p.netAmount ?? 0, p.currency), badge(p.status), p.customerEmail ?? '—', when(p.createdAt)])),
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

interface PaymentDetail extends PaymentRow {
  customerName: string | null;
  completedAt: string | null;
  checkoutUrl: string;
  fee: number;
  netAmount: number;
  checkoutStage: string;
  threeDsOutcome: string | null;
  failureCode: string | null;
  card: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null;
  refunds: { id: string; status: string; reason: string; rejectionReason: string | null; failureReason: string | null; createdAt: string; reviewedAt: string | null; refundedAt: string | null }[];
  webhookDeliveries: { id: string; eventType: string; status: string; attemptCount: number; lastAttemptAt: string | null; nextAttemptAt: string | null; deliveredAt: string | null; failedAt: string | null; attempts: { number: number; httpStatus: number | null; error: string | null; startedAt: string }[] }[];
}

/** The payment's story, in the order it happened, from what is stored (never a card number). */
function story(p: PaymentDetail): [string, string][] {
  const steps: [string, string][] = [[when(p.createdAt), `Created for ${money(p.amount, p.currency)}`]];
  const brand = p.card?.brand ? p.card.brand.charAt(0).toUpperCase() + p.card.brand.slice(1) : 'Card';
  if (p.card) steps.push(['', `Card attempt: ${brand} ending ${p.card.last4 ?? '····'}`]);
  if (p.threeDsOutcome) steps.push(['', `3-D Secure: ${p.threeDsOutcome}`]);
  if (p.status === 'COMPLETED' || p.status === 'REFUNDED') steps.push([when(p.completedAt), `Completed: ${money(p.netAmount, p.currency)} credited after the ${money(p.fee, p.currency)} fee`]);
  if (p.status === 'FAILED') steps.push(['', `Failed${p.failureCode ? `: ${p.failureCode.replace(/_/g, ' ')}` : ''}`]);
  if (p.status === 'PENDING') steps.push(['', p.checkoutStage === 'PROCESSING' ? 'Card submitted, waiting for the bank' : 'Waiting for the customer to pay']);
  for (const r of p.refunds) {
    steps.push([when(r.createdAt), `Refund requested: “${r.reason}”`]);
    if (r.reviewedAt) steps.push([when(r.reviewedAt), `Refund ${statusWord(r.status).toLowerCase()}.${refundReasonNote(r)}`]);
    if (r.refundedAt) steps.push([when(r.refundedAt), 'Refunded to the card']);
  }
  return steps;
}

export const paymentScreen: Screen = {
  title: 'Payment',
  signedIn: true,
  async render(main, _params, parts) {
    const id = decodeURIComponent(parts[0] ?? '');
    const { payment: p } = await run<{ payment: PaymentDetail }>('PaymentDetail', { id });
    heading(main, `Payment ${money(p.amount, p.currency)}`);
    main.append(
      h('p', {}, link('Back to payments', '/dashboard/payments')),
      h('dl', { class: 'details' },
        ...([
          ['Payment id', h('span', { class: 'mono' }, p.id)], ['Status', badge(p.status)], ['Amount', money(p.amount, p.currency)],
          ['Fee', money(p.fee, p.currency)], ['Net', money(p.netAmount, p.currency)], ['Customer', [p.customerName, p.customerEmail].filter(Boolean).join(' · ') || '—'],
          ['Created', when(p.createdAt)], ['Completed', when(p.completedAt)],
        ] as [string, Node | string][]).map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))),
      ),
      copyField('Checkout link', p.checkoutUrl, 'Copy checkout link'),
      h('section', { 'aria-labelledby': 'story-title' }, h('h2', { id: 'story-title' }, 'Story'),
        h('ol', { class: 'story' }, ...story(p).map(([time, text]) => h('li', {}, time ? h('span', { class: 'muted' }, `${time} — `) : null, text)))),
    );
    main.append(refundSection(p));
    main.append(h('section', { 'aria-labelledby': 'deliveries-title' }, h('h2', { id: 'deliveries-title' }, 'Webhook deliveries'),
      p.webhookDeliveries.length === 0
        ? h('p', { class: 'empty' }, 'No webhook deliveries for this payment.')
        : table('Webhook deliveries of this payment', ['Event', 'Status', 'Attempts', 'Last answer', 'Next retry'], p.webhookDeliveries.map((d) => {
          const last = d.attempts[d.attempts.length - 1];
          return [d.eventType, statusWord(d.status), String(d.attemptCount), last ? (last.httpStatus ? `HTTP ${last.httpStatus}` : last.error ?? '—') : '—', d.status === 'PENDING' ? when(d.nextAttemptAt) : '—'];
        }))));
  },
};

/** Sellers ask; finance decides (docs/dashboard.md). One open request per payment, as the server holds. */
function refundSection(p: PaymentDetail): HTMLElement {
  const section = h('section', { 'aria-labelledby': 'refund-title' }, h('h2', { id: 'refund-title' }, 'Refund'));
  for (const r of p.refunds) {
    section.append(h('p', {}, 'Refund request: ', badge(r.status), ` — “${r.reason}”`, refundReasonNote(r)));
  }
  const open = p.refunds.some((r) => ['REQUESTED', 'APPROVED', 'PROCESSING'].includes(r.status));
  if (p.status !== 'COMPLETED' || open) {
    if (p.refunds.length === 0) section.append(h('p', { class: 'empty' }, 'A refund can be requested once the payment is completed.'));
    return section;
  }
  const reason = field('Reason', { tag: 'textarea', rows: 3, maxlength: 500, required: true }, 'Our support team reviews every request within 24 hours; the full amount is refunded to the card.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, reason.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Request refund'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const { requestRefund } = await run<{ requestRefund: { status: string } }>('RequestRefund', { paymentId: p.id, reason: reason.control.value });
      form.replaceWith(h('p', { role: 'status' }, 'Refund request sent: ', badge(requestRefund.status), '. Our support team reviews it within 24 hours.'));
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  section.append(form);
  return section;
}
