import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, completedPayment, eventually, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let admin: AdminClient;
/** Support records requests, finance decides (docs/admin.md); `admin` (an owner) reads. */
let support: AdminClient;
let finance: AdminClient;

beforeAll(async () => {
  admin = await adminClient(service);
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
});

const REQUEST = `mutation ($amount: SafeInt!, $shopId: ID) { requestWithdrawal(amount: $amount, shopId: $shopId) { id status amount } }`;
const APPROVE = `mutation ($id: ID!) { approveWithdrawal(id: $id) { id status reviewedBy { email } } }`;
const REJECT = `mutation ($id: ID!, $reason: String!) { rejectWithdrawal(id: $id, reason: $reason) { id status rejectionReason } }`;
const PAID = `mutation ($id: ID!, $reference: String!) { markWithdrawalPaid(id: $id, reference: $reference) { id status payoutReference paidAt } }`;
const BALANCE = `query ($shopId: ID) { balance(shopId: $shopId) { available pendingWithdrawals paidOut gross fees refunds entries(limit: 100) { items { kind amount paymentId withdrawalId } pagination { total } } } }`;
const QUEUE = `query ($status: WithdrawalStatus, $shopId: ID) { withdrawals(status: $status, shopId: $shopId, limit: 100) { items { id status amount shop { id } } pagination { total } } }`;

/** A shop whose seller's available balance is `net` cents (one completed payment of `gross`) and who has a payout account. */
async function shopWithBalance(gross: number) {
  const payment = await completedPayment(service, gross, await payableShop(service));
  const asSeller = <T = any>(query: string, variables: Record<string, unknown> = {}) => graphql<T>(service.url, `Bearer ${payment.shop.apiKey}`, query, variables);
  return { ...payment, asSeller };
}

describe('requesting a withdrawal', () => {
  test('by the seller key: the amount is held at once (a ledger debit in the same transaction)', async () => {
    const { shop, asSeller } = await shopWithBalance(10_000); // 8500 net
    const answer = await asSeller(REQUEST, { amount: 3000 });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.requestWithdrawal).toMatchObject({ status: 'REQUESTED', amount: 3000 });
    const balance = (await asSeller(BALANCE)).data.balance;
    expect(balance).toMatchObject({ available: 5500, pendingWithdrawals: 3000, paidOut: 0, gross: 10_000, fees: 1500, refunds: 0 });
    expect(balance.entries.items.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['withdrawal_hold', -3000],
      ['fee', -1500],
      ['payment', 10_000],
    ]);
    expect(balance.entries.items[0].withdrawalId).toBe(answer.data.requestWithdrawal.id);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(5500n);
  });

  test('by an admin for a shop, recorded in the audit log', async () => {
    const { shop } = await shopWithBalance(2000); // 1700
    const { requestWithdrawal } = await support.ok(REQUEST, { amount: 1700, shopId: shop.shop.id });
    expect(requestWithdrawal.status).toBe('REQUESTED');
    const log = await admin.ok(`query ($t: String) { auditLog(targetId: $t) { items { action actor details } } }`, { t: requestWithdrawal.id });
    expect(log.auditLog.items).toEqual([{ action: 'withdrawal.requested', actor: support.admin.email, details: { shopId: shop.shop.id, amount: 1700 } }]);
  });

  test.each([
    [999, 'Withdrawal amount must be at least 1000 cents (10 USD)', 'WITHDRAWAL_BELOW_MINIMUM'],
    [0, 'Withdrawal amount must be at least 1000 cents (10 USD)', 'WITHDRAWAL_BELOW_MINIMUM'],
    [-5000, 'Withdrawal amount must be at least 1000 cents (10 USD)', 'WITHDRAWAL_BELOW_MINIMUM'],
    [8501, 'Withdrawal amount exceeds the available balance of 8500 cents', 'WITHDRAWAL_EXCEEDS_BALANCE'],
  ])('%d cents -> %s', async (amount, message, code) => {
    const { asSeller } = await shopWithBalance(10_000);
    const answer = await asSeller(REQUEST, { amount });
    expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code } });
    expect((await asSeller(BALANCE)).data.balance.available).toBe(8500);
  });

  test('a fraction of a cent is not an amount', async () => {
    const { asSeller } = await shopWithBalance(10_000);
    const answer = await asSeller(REQUEST, { amount: 1500.5 });
    expect(answer.errors?.[0].message).toMatch(/SafeInt/);
  });

  test('the whole balance may be withdrawn, then nothing more', async () => {
    const { asSeller } = await shopWithBalance(2000); // 1700
    expect((await asSeller(REQUEST, { amount: 1700 })).data.requestWithdrawal.status).toBe('REQUESTED');
    expect((await asSeller(REQUEST, { amount: 1000 })).errors?.[0].message).toBe('Withdrawal amount exceeds the available balance of 0 cents');
  });

  test('refused while the balance is negative (after a refund)', async () => {
    const { shop, paymentId, asSeller } = await shopWithBalance(2000); // 1700
    await asSeller(REQUEST, { amount: 1500 }); // 200 left
    const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: paymentId });
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
    await eventually(async () => (await sellerBalance(service.em(), shop.seller.id)) === -1800n, 10_000, 'the refund');
    const answer = await asSeller(REQUEST, { amount: 1000 });
    expect(answer.errors?.[0]).toMatchObject({ message: 'Withdrawals are refused while the balance is negative', extensions: { code: 'WITHDRAWAL_BALANCE_NEGATIVE' } });
    expect((await asSeller(BALANCE)).data.balance).toMatchObject({ available: -1800, refunds: 2000, pendingWithdrawals: 1500 });
  });

  test('a seller cannot ask for another shop', async () => {
    const { asSeller } = await shopWithBalance(2000);
    const other = await service.createShop();
    const answer = await asSeller(REQUEST, { amount: 1000, shopId: other.shop.id });
    expect(answer.errors?.[0]).toMatchObject({ message: 'Shop not found', extensions: { code: 'SHOP_NOT_FOUND' } });
  });

  test('an admin must name the shop', async () => {
    const answer = await support.run(REQUEST, { amount: 1000 });
    expect(answer.errors?.[0].message).toBe('Missing required field: shopId');
  });
});

describe('concurrent withdrawals never overdraw', () => {
  test('20 simultaneous requests of 1000 against 8500: exactly 8 are held, the balance never goes below zero', async () => {
    const { shop, asSeller } = await shopWithBalance(10_000); // 8500
    const answers = await Promise.all(Array.from({ length: 20 }, () => asSeller(REQUEST, { amount: 1000 })));
    const accepted = answers.filter((a) => !a.errors);
    expect(accepted).toHaveLength(8);
    for (const refused of answers.filter((a) => a.errors)) {
      expect(refused.errors![0].message).toMatch(/^Withdrawal amount exceeds the available balance of \d+ cents$/);
    }
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(500n);
  });

  test('admin and seller asking at once for the same seller are serialized too', async () => {
    const { shop, asSeller } = await shopWithBalance(4000); // 3400
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => asSeller(REQUEST, { amount: 1200 })),
      ...Array.from({ length: 5 }, () => support.run(REQUEST, { amount: 1200, shopId: shop.shop.id })),
    ]);
    expect(answers.filter((a) => !a.errors)).toHaveLength(2);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(1000n);
  });
});

describe('reviewing a withdrawal', () => {
  test('approve, then mark paid with the transfer reference: the hold becomes a payout', async () => {
    const { shop, asSeller } = await shopWithBalance(10_000);
    const id = (await asSeller(REQUEST, { amount: 5000 })).data.requestWithdrawal.id;
    expect((await admin.ok(QUEUE, { status: 'REQUESTED', shopId: shop.shop.id })).withdrawals.items.map((w: { id: string }) => w.id)).toEqual([id]);

    const early = await finance.run(PAID, { id, reference: 'TRX-1' });
    expect(early.errors?.[0]).toMatchObject({ message: 'Only approved withdrawals can be marked paid (this one is requested)', extensions: { code: 'WITHDRAWAL_STATE_CONFLICT' } });

    expect((await finance.ok(APPROVE, { id })).approveWithdrawal).toMatchObject({ status: 'APPROVED', reviewedBy: { email: finance.admin.email } });
    expect((await finance.run(APPROVE, { id })).errors?.[0].message).toBe('Only requested withdrawals can be approved (this one is approved)');
    expect((await finance.run(PAID, { id, reference: '  ' })).errors?.[0].message).toBe('A payout reference of 1 to 200 characters is required');

    const paid = (await finance.ok(PAID, { id, reference: 'TRX-2026-0042' })).markWithdrawalPaid;
    expect(paid).toMatchObject({ status: 'PAID', payoutReference: 'TRX-2026-0042' });
    expect((await asSeller(BALANCE)).data.balance).toMatchObject({ available: 3500, pendingWithdrawals: 0, paidOut: 5000 });
    const journal = await service.em().find(LedgerEntry, { withdrawalId: id }, { orderBy: { id: 'asc' } });
    expect(journal.map((e) => [e.kind, e.account, e.amount])).toEqual([
      ['withdrawal_hold', 'seller_balance', -5000],
      ['withdrawal_hold', 'withdrawals_payable', 5000],
      ['payout', 'withdrawals_payable', -5000],
      ['payout', 'payouts', 5000],
    ]);
    expect((await finance.run(REJECT, { id, reason: 'too late' })).errors?.[0].message).toBe('Only requested or approved withdrawals can be rejected (this one is paid)');
  });

  test('reject with a reason: the hold is released by a new entry, never an edit', async () => {
    const { shop, asSeller } = await shopWithBalance(10_000);
    const id = (await asSeller(REQUEST, { amount: 2000 })).data.requestWithdrawal.id;
    expect((await finance.run(REJECT, { id, reason: '' })).errors?.[0].extensions?.code).toBe('REASON_REQUIRED');
    expect((await finance.ok(REJECT, { id, reason: 'Bank account name does not match' })).rejectWithdrawal).toMatchObject({ status: 'REJECTED' });
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(8500n);
    const kinds = (await service.em().find(LedgerEntry, { withdrawalId: id, account: LedgerAccount.SELLER_BALANCE }, { orderBy: { id: 'asc' } })).map((e) => [e.kind, e.amount]);
    expect(kinds).toEqual([['withdrawal_hold', -2000], ['withdrawal_release', 2000]]);
  });

  test('two admins rejecting at once release the hold once', async () => {
    const { shop, asSeller } = await shopWithBalance(10_000);
    const id = (await asSeller(REQUEST, { amount: 2000 })).data.requestWithdrawal.id;
    const answers = await Promise.all(Array.from({ length: 8 }, () => finance.run(REJECT, { id, reason: 'duplicate' })));
    expect(answers.filter((a) => !a.errors)).toHaveLength(1);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(8500n);
  });

  test('a seller sees its own withdrawals but may not review them', async () => {
    const { asSeller } = await shopWithBalance(3000);
    const id = (await asSeller(REQUEST, { amount: 1000 })).data.requestWithdrawal.id;
    const mine = await asSeller(`{ withdrawals { items { id status } } }`);
    expect(mine.data.withdrawals.items).toEqual([{ id, status: 'REQUESTED' }]);
    const approve = await asSeller(APPROVE, { id });
    expect(approve.errors?.[0]).toMatchObject({ message: 'Access denied', extensions: { code: 'FORBIDDEN' } });
  });

  test('an unknown withdrawal -> Withdrawal not found', async () => {
    expect((await finance.run(APPROVE, { id: 'wd_nope' })).errors?.[0].message).toBe('Withdrawal not found');
  });
});

describe('balances', () => {
  test("a seller sees only its own balance; an admin any shop's", async () => {
    const { shop, asSeller } = await shopWithBalance(1000);
    const other = await service.createShop();
    expect((await asSeller(BALANCE, { shopId: other.shop.id })).errors?.[0].message).toBe('Shop not found');
    expect((await admin.ok(BALANCE, { shopId: shop.shop.id })).balance).toMatchObject({ available: 850, gross: 1000, fees: 150 });
    expect((await admin.run(BALANCE, { shopId: 'shop_missing' })).errors?.[0].message).toBe('Shop not found');
  });

  test('ledger entries are paginated', async () => {
    const { asSeller } = await shopWithBalance(10_000);
    for (let i = 0; i < 3; i++) await asSeller(REQUEST, { amount: 1000 });
    const page = await asSeller(`{ balance { entries(page: 2, limit: 2) { items { kind amount } pagination { page limit total pages } } } }`);
    expect(page.data.balance.entries).toEqual({
      items: [{ kind: 'withdrawal_hold', amount: -1000 }, { kind: 'fee', amount: -1500 }],
      pagination: { page: 2, limit: 2, total: 5, pages: 3 },
    });
  });
});
