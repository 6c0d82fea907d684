import { run } from './api';
import { downloadLink, field, h, messageArea, table } from './dom';
import { dollarsToCents, money, statusWord, when } from './format';
import { withReauthentication } from './reauth';
import { heading, link, type Screen } from './shell';

/** The server's minimum (src/shared/limits.ts), for the hint; the refusal itself is the server's. */
const WITHDRAWAL_MINIMUM_CENTS = 1000;

interface Withdrawal { id: string; amount: number; status: string; createdAt: string; reviewedAt: string | null; paidAt: string | null; rejectionReason: string | null; payoutReference: string | null }

interface WithdrawalsData {
  currentSeller: { emailVerifiedAt: string | null; twoFactorEnabled: boolean; payoutAccount: PayoutAccount | null; shop: { id: string } | null };
  balance: { available: number | string; pendingWithdrawals: number | string; paidOut: number | string };
  withdrawals: { items: Withdrawal[] };
}

function figuresOf(balance: WithdrawalsData['balance']): HTMLElement[] {
  return ([['Available balance', balance.available], ['Pending withdrawals', balance.pendingWithdrawals], ['Paid out', balance.paidOut]] as const)
    .map(([label, cents]) => h('div', { class: 'figure' }, h('dt', {}, label), h('dd', {}, money(cents))));
}

/**
 * Withdrawals: the balance tiles (drawn again after each request), the request form (once the e-mail is verified
 * is the server's rule; a payout account must be saved first, the server's rule too), where the payout goes, and
 * the list.
 */
export const withdrawalsScreen: Screen = {
  title: 'Withdrawals',
  signedIn: true,
  async render(main) {
    const data = await run<WithdrawalsData>('Withdrawals');
    heading(main, this.title);
    const figures = h('dl', { class: 'figures', 'aria-live': 'polite' }, ...figuresOf(data.balance));
    main.append(figures);
    if (!data.currentSeller.emailVerifiedAt) main.append(verificationNotice());

    const list = h('div', {}, withdrawalList(data.withdrawals.items));
    const request = h('section', { 'aria-labelledby': 'request-title' }, h('h2', { id: 'request-title' }, 'Request a withdrawal'));
    const showRequest = (hasPayoutAccount: boolean) => {
      request.replaceChildren(h('h2', { id: 'request-title' }, 'Request a withdrawal'));
      if (!data.currentSeller.shop) {
        request.append(h('p', { class: 'empty' }, 'You have no live shop. ', link('Create a new shop', '/dashboard/developers'), ' to request withdrawals again; your balance is kept.'));
      } else if (!hasPayoutAccount) {
        request.append(h('p', { class: 'empty', id: 'payout-first' }, 'Add the bank account your withdrawals are paid to (below) before requesting a withdrawal.'));
      } else {
        request.append(requestForm(async () => {
          const fresh = await run<WithdrawalsData>('Withdrawals');
          figures.replaceChildren(...figuresOf(fresh.balance));
          list.replaceChildren(withdrawalList(fresh.withdrawals.items));
        }));
      }
    };
    showRequest(Boolean(data.currentSeller.payoutAccount));
    main.append(
      request,
      payoutSection(data.currentSeller.payoutAccount, data.currentSeller.twoFactorEnabled, () => showRequest(true)),
      h('section', { 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Your withdrawals'),
        h('p', {}, downloadLink('Download CSV', '/dashboard/exports/withdrawals.csv')), list),
    );
  },
};

function requestForm(refresh: () => Promise<void>): HTMLElement {
  const amount = field('Amount (USD)', { type: 'text', inputmode: 'decimal', autocomplete: 'off', required: true }, `At least ${money(WITHDRAWAL_MINIMUM_CENTS)} and at most your available balance. The amount is held at once; our finance team pays it out.`);
  const message = messageArea();
  const form = h('form', { class: 'panel narrow', novalidate: true }, amount.wrap, message.element, h('button', { type: 'submit', class: 'primary' }, 'Request withdrawal'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.clear();
    const cents = dollarsToCents(amount.control.value);
    if (cents === null) return message.error('Enter an amount in dollars, for example 25 or 25.50.');
    try {
      const { requestWithdrawal } = await run<{ requestWithdrawal: Withdrawal }>('RequestWithdrawal', { amount: cents });
      amount.control.value = '';
      await refresh();
      message.success(`Withdrawal of ${money(requestWithdrawal.amount)} requested. It is held from your available balance until our finance team pays it out.`);
    } catch (error) {
      message.error((error as Error).message);
    }
  });
  return form;
}

/** Shown while the address is unverified: withdrawals wait for it; the link can be sent again. */
function verificationNotice(): HTMLElement {
  const message = messageArea();
  const notice = h('div', { class: 'warning notice' },
    h('p', {}, 'Verify your email address before your first withdrawal: open the link in the email we sent you.'),
    h('button', {
      type: 'button',
      class: 'secondary small',
      onclick: async () => {
        message.clear();
        try {
          const { resendVerificationEmail } = await run<{ resendVerificationEmail: boolean }>('ResendVerificationEmail');
          if (resendVerificationEmail) message.success('A new link is on its way to your email address.');
          else notice.replaceWith(h('p', { class: 'message', role: 'status' }, 'Your email address is already verified.'));
        } catch (error) {
          message.error((error as Error).message);
        }
      },
    }, 'Send the link again'),
    message.element);
  return notice;
}

interface PayoutAccount { holder: string; accountNumberMasked: string }

/**
 * Where payouts go: after entry the number is only ever shown masked (the server never answers it whole to the
 * seller). Saving asks for the password (or a code) first: a stolen session alone cannot redirect payouts.
 */
function payoutSection(account: PayoutAccount | null, twoFactor: boolean, onSaved: () => void): HTMLElement {
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
      onSaved();
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
