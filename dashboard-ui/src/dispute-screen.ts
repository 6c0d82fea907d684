import { run } from './api';
import { h, table } from './dom';
import { lineWord, money, statusWord, when } from './format';
import { heading, link, type Screen } from './shell';

interface SellerDispute {
  dispute: { id: string; status: string; amount: number; currency: string; reason: string | null; liability: string; sellerShare: number; openedAt: string; updatedAt: string };
  payment: { id: string; amount: number; currency: string; customerEmail: string | null; fromPastShop: boolean };
  balanceEntries: { kind: string; amount: number; createdAt: string }[];
}

/** What each state means for the seller, in a sentence. */
const MEANING: Record<string, string> = {
  NOTIFIED: 'The cardholder’s bank asked about it; nothing has been taken yet.',
  CHARGED_BACK: 'The bank took the money back from your balance.',
  REVERSED: 'The chargeback was reversed: the money came back.',
  SECOND_CHARGEBACK: 'The bank took the money back a second time.',
  WON: 'Decided in your favour: the money came back.',
  LOST: 'Decided for the cardholder: the money stays with them.',
  CLOSED: 'Closed without taking money.',
};

/**
 * Disputes (docs/dashboard.md, "Disputes"): each chargeback on a payment of any shop of the seller, with its
 * state, amount, reason and dates, and what it did to the balance (its journal lines). Disputes come from the
 * card's bank through our acquirer; the seller follows them here.
 */
export const disputesScreen: Screen = {
  title: 'Disputes',
  signedIn: true,
  async render(main, params) {
    const page = Math.max(1, Number(params.get('page')) || 1);
    const data = await run<{ currentSeller: { disputes: { items: SellerDispute[]; pagination: { page: number; pages: number; total: number } } } }>('Disputes', { page });
    heading(main, this.title);
    main.append(h('p', { class: 'muted' }, 'When a cardholder disputes a payment with their bank, the bank may take the money back (a chargeback). Each dispute shows here with what it did to your balance; our fee is not returned.'));
    const { items, pagination } = data.currentSeller.disputes;
    if (items.length === 0) {
      main.append(h('p', { class: 'empty' }, 'No disputes. If a cardholder disputes a payment, it shows here and we email you.'));
      return;
    }
    main.append(table('Disputes', ['Payment', 'Status', 'Amount', 'Reason', 'Opened', 'Last change', 'Effect on your balance'], items.map(({ dispute: d, payment: p, balanceEntries }) => [
      [link(p.id, `/dashboard/payments/${encodeURIComponent(p.id)}`, { class: 'mono' }), p.fromPastShop ? [' ', h('span', { class: 'tag' }, 'Past shop')] : null].flat(),
      [h('span', { class: `badge ${d.status.toLowerCase()}` }, statusWord(d.status)), h('span', { class: 'muted small-text block' }, MEANING[d.status] ?? '')],
      money(d.amount, d.currency),
      d.reason ?? '—',
      when(d.openedAt),
      when(d.updatedAt),
      balanceEntries.length === 0
        ? (d.status === 'NOTIFIED' || d.status === 'CLOSED' ? 'None' : 'None: we bear it (you had already refunded the payment)')
        : h('ul', { class: 'plain' }, ...balanceEntries.map((e) => h('li', {}, `${lineWord(e.kind)} ${money(e.amount, d.currency)}`, h('span', { class: 'muted small-text' }, ` ${when(e.createdAt)}`)))),
    ])));
    if (pagination.pages > 1) {
      main.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
        pagination.page > 1 ? link('Previous page', `/dashboard/disputes?page=${pagination.page - 1}`) : null,
        h('span', {}, `Page ${pagination.page} of ${pagination.pages}`),
        pagination.page < pagination.pages ? link('Next page', `/dashboard/disputes?page=${pagination.page + 1}`) : null));
    }
  },
};
