import { run } from './api';
import { field, h, messageArea, table } from './dom';
import { dollarsToCents, money, statusWord, when } from './format';
import { withReauthentication } from './reauth';
import { heading, link, type Screen } from './shell';

interface Withdrawal { id: string; amount: number; status: string; createdAt: string; reviewedAt: string | null; paidAt: string | null; rejectionReason: string | null; payoutReference: string | null }

export const withdrawalsScreen: Screen = {
  title: 'Withdrawals',
  signedIn: true,
  async render(main) {
    const data = await run<{
      currentSeller: { twoFactorEnabled: boolean; payoutAccount: PayoutAccount | null };
      balance: { available: number | string; pendingWithdrawals: number | string; paidOut: number | string };
      withdrawals: { items: Withdrawal[] };
    }>('Withdrawals');
    heading(main, this.title);
    main.append(h('dl', { class: 'figures' },
      ...([['Available balance', data.balance.available], ['Pending withdrawals', data.balance.pendingWithdrawals], ['Paid out', data.balance.paidOut]] as const)
        .map(([label, cents]) => h('div', { class: 'figure' }, h('dt', {}, label), h('dd', {}, money(cents))))));

    const amount = field('Amount (USD)', { type: 'text', inputmode: 'decimal', autocomplete: 'off', required: true }, 'At least 10 USD and at most your available balance. The amount is held at once; our finance team pays it out.');
    const message = messageArea();
    const form = h('form', { class: 'panel narrow', novalidate: true }, amount.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Request withdrawal'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      message.clear();
      const cents = dollarsToCents(amount.control.value);
      if (cents === null) return message.error('Enter an amount in dollars, for example 25 or 25.50.');
      try {
        const { requestWithdrawal } = await run<{ requestWithdrawal: Withdrawal }>('RequestWithdrawal', { amount: cents });
        message.success(`Withdrawal of ${money(requestWithdrawal.amount)} requested: ${statusWord(requestWithdrawal.status).toLowerCase()}, the amount is held.`);
        amount.control.value = '';
        list.replaceChildren(withdrawalList((await run<{ withdrawals: { items: Withdrawal[] } }>('Withdrawals')).withdrawals.items));
      } catch (error) {
        message.error((error as Error).message);
      }
    });
    const list = h('div', {}, withdrawalList(data.withdrawals.items));
    main.append(
      h('section', { 'aria-labelledby': 'request-title' }, h('h2', { id: 'request-title' }, 'Request a withdrawal'), form,
        h('p', { class: 'muted' }, 'Your email address must be verified before the first withdrawal. ', link('Account', '/dashboard/account'), ' shows whether it is.')),
      payoutSection(data.currentSeller.payoutAccount, data.currentSeller.twoFactorEnabled),
      h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Your withdrawals'), list),
    );
  },
};

interface PayoutAccount { holder: string; accountNumberMasked: string }

/**
 * Where payouts go: after entry the number is only ever shown masked (the server never answers it whole to the
 * seller). Saving asks for the password (or a code) first: a stolen session alone cannot redirect payouts.
 */
function payoutSection(account: PayoutAccount | null, twoFactor: boolean): HTMLElement {
  const current = h('p', { class: 'payout-current' });
  const show = (a: PayoutAccount | null) => {
    current.replaceChildren(...(a ? ['Payouts go to ', h('strong', {}, a.holder), ', bank account ', h('span', { class: 'mono' }, a.accountNumberMasked), '.'] : ['No payout account yet: add one so our finance team can pay your withdrawals.']));
  };
  show(account);
  const holder = field('Account holder', { type: 'text', autocomplete: 'name', maxlength: 200, value: account?.holder ?? '' });
  const number = field('Bank account number', { type: 'text', autocomplete: 'off', spellcheck: 'false', maxlength: 50 }, 'IBAN or local account number. Once saved it is shown masked.');
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, holder.wrap, number.wrap, message.element, h('button', { type: 'submit', class: 'secondary' }, 'Save payout account'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    try {
      const variables = { holder: holder.control.value, accountNumber: number.control.value };
      const saved = await withReauthentication('Save the payout account', twoFactor, (proof) => run<{ setPayoutAccount: PayoutAccount }>('SetPayoutAccount', { ...variables, ...proof }));
      if (saved === null) return message.success('Not saved: the payout account is unchanged.');
      const { setPayoutAccount } = saved;
      number.control.value = '';
      show(setPayoutAccount);
      message.success(`Payout account saved: ${setPayoutAccount.accountNumberMasked}.`);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return h('section', { 'aria-labelledby': 'payout-title' }, h('h2', { id: 'payout-title' }, 'Where the payout goes'), current, form);
}

function withdrawalList(items: Withdrawal[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'empty' }, 'No withdrawals yet.');
  return table('Your withdrawals', ['Amount', 'Status', 'Requested', 'Reviewed', 'Paid', 'Note'], items.map((w) => [
    money(w.amount), h('span', { class: `badge ${w.status.toLowerCase()}` }, statusWord(w.status)), when(w.createdAt), when(w.reviewedAt), when(w.paidAt),
    w.rejectionReason ?? (w.payoutReference ? `Reference ${w.payoutReference}` : '—'),
  ]));
}
