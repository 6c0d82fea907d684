import { Client } from 'pg';
import { LEDGER_INVARIANTS, checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually } from '../../support/admin-client';
import { type AdyenStandIn, HOLDER } from '../../support/adyen-stand-in';
import { checkoutClient, CARD } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { adyenSuite } from '../../support/adyen-suite';
import type { TestService } from '../../support/test-service';
import { testRun } from '../../support/test-env';

jest.setTimeout(60_000);

const VISA = '4111111111111111';
const AMOUNT = 5000;
const FEE = 750;
const ours = new Set<string>();
// A short statement timeout lets a test make applying a notification fail (a row held locked) and see it retried.
const suite = adyenSuite('adyen-disputes', {
  RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '100', REFUND_SWEEP_INTERVAL_MS: '100',
  RATE_LIMIT_PER_MINUTE: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1000',
});
let adyen: AdyenStandIn;
let service: TestService;
beforeAll(() => ({ adyen, service } = suite));
const { applyNotifications, reload } = suite;

async function paidPayment(amount = AMOUNT) {
  const shop = await service.createShop();
  const id = (await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount })).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  expect((await checkoutClient(service.url).pay(id, VISA)).body.data.submitCard.status).toBe('COMPLETED');
  const psp = (await reload(id)).processorReference!;
  return { shop, id, psp, dispute: { reference: `DP${psp.slice(2)}`, paymentId: id, paymentPspReference: psp, amount: { currency: 'USD', value: amount } } };
}

async function balanceOf(sellerId: string): Promise<number> {
  const [row] = await service.em().getConnection().execute(`select coalesce(sum("amount"), 0)::int as sum from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`, [sellerId]);
  return row.sum;
}

async function disputeJournals(id: string): Promise<string[]> {
  const entries = await service.em().find(LedgerEntry, { paymentId: id, kind: { $nin: ['payment', 'fee'] } }, { orderBy: { id: 'asc' } });
  return entries.map((e) => `${e.account} ${e.kind} ${e.amount}`);
}

async function ourViolations() {
  return (await checkLedger(service.em())).violations.filter((v) => ours.has(v.subject) || [...ours].some((id) => v.subject.includes(id)));
}

async function notifyAndApply(code: string, dispute: Parameters<AdyenStandIn['notifyDispute']>[1]) {
  expect((await adyen.notifyDispute(code, dispute)).text).toBe('[accepted]');
  await applyNotifications();
}

async function refundThroughAdyen(id: string, amount: number | null = null) {
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!, $a: SafeInt) { requestRefund(paymentId: $p, reason: "returned", amount: $a) { id } }`, { p: id, a: amount });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
  const refund = await refundOf();
  expect((await adyen.notify({ eventCode: 'REFUND', pspReference: refund.processorReference!, originalReference: (await reload(id)).processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: refund.amount }, success: true })).text).toBe('[accepted]');
  await applyNotifications();
  // On a loaded machine applying may run past the short statement timeout: the inbox's retry then settles it.
  await eventually(async () => (await refundOf()).status === 'refunded', 10_000, 'the REFUND notification to settle the refund');
  return refundOf;
}

describe('a dispute through its whole lifecycle', () => {
  test('inquiry, chargeback, defence, second chargeback, pre-arbitration won: each move books its own journal and the balance follows', async () => {
    const { id, shop, dispute } = await paidPayment();
    const seller = shop.seller.id;
    const statusOf = async () => (await (await adminClient(service, AdminRole.SUPPORT)).ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { dispute { status amount liability } } } }`, { id })).searchPayments.items[0].dispute;

    await notifyAndApply('NOTIFICATION_OF_CHARGEBACK', dispute);
    expect(await statusOf()).toEqual({ status: 'NOTIFIED', amount: AMOUNT, liability: 'SELLER' });
    expect(await balanceOf(seller)).toBe(AMOUNT - FEE);

    await notifyAndApply('CHARGEBACK', dispute);
    expect((await statusOf()).status).toBe('CHARGED_BACK');
    expect(await balanceOf(seller)).toBe(-FEE);

    await notifyAndApply('CHARGEBACK_REVERSED', dispute);
    expect((await statusOf()).status).toBe('REVERSED');
    expect(await balanceOf(seller)).toBe(AMOUNT - FEE);

    await notifyAndApply('SECOND_CHARGEBACK', dispute);
    expect((await statusOf()).status).toBe('SECOND_CHARGEBACK');
    expect(await balanceOf(seller)).toBe(-FEE);

    await notifyAndApply('PREARBITRATION_WON', dispute);
    expect((await statusOf()).status).toBe('WON');
    expect(await balanceOf(seller)).toBe(AMOUNT - FEE);

    expect(await disputeJournals(id)).toEqual([
      `seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`,
      `seller_balance chargeback_reversed ${AMOUNT}`, `customer_funds chargeback_reversed -${AMOUNT}`,
      `seller_balance second_chargeback -${AMOUNT}`, `customer_funds second_chargeback ${AMOUNT}`,
      `seller_balance dispute_won ${AMOUNT}`, `customer_funds dispute_won -${AMOUNT}`,
    ]);
    // Every event again (Adyen retries): nothing more is booked.
    for (const code of ['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_WON']) await notifyAndApply(code, dispute);
    expect(await disputeJournals(id)).toHaveLength(8);
    expect(await ourViolations()).toEqual([]);
  });

  test('a chargeback the seller does not defend is lost: the debit stands; the seller sees the dispute on the payment', async () => {
    const { id, shop, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', dispute);
    await notifyAndApply('DISPUTE_DEFENSE_PERIOD_ENDED', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    const [row] = await service.em().getConnection().execute(`select "status" from "disputes" where "payment_id" = ?`, [id]);
    expect(row.status).toBe('lost');
    expect(await ourViolations()).toEqual([]);
  });

  test("with Adyen, no admin can make a chargeback reverse: the simulator's button is refused on the server and not offered", async () => {
    const { shop, id, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', dispute);
    const finance = await adminClient(service, AdminRole.FINANCE);
    const [{ id: disputeId }] = await service.em().getConnection().execute(`select "id" from "disputes" where "payment_id" = ?`, [id]);
    expect((await finance.ok(`query ($id: ID!) { dispute(id: $id) { status canSimulateReversal } }`, { id: disputeId })).dispute).toEqual({ status: 'CHARGED_BACK', canSimulateReversal: false });
    const refused = await finance.run(`mutation ($id: ID!) { simulateChargebackReversal(id: $id) { status } }`, { id: disputeId });
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'SIMULATOR_ONLY' } });
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect(await disputeJournals(id)).toEqual([`seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`]);
    expect(await ourViolations()).toEqual([]);
  });

  test('an inquiry that expires closes with no money moved', async () => {
    const { id, shop, dispute } = await paidPayment();
    await notifyAndApply('REQUEST_FOR_INFORMATION', dispute);
    await notifyAndApply('ISSUER_RESPONSE_TIMEFRAME_EXPIRED', dispute);
    const [row] = await service.em().getConnection().execute(`select "status" from "disputes" where "payment_id" = ?`, [id]);
    expect(row.status).toBe('closed');
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    expect(await disputeJournals(id)).toEqual([]);
  });

  test('a reversal that comes before its chargeback waits, listed for admins, and is applied the moment its chargeback lands', async () => {
    const { id, shop, dispute } = await paidPayment();
    const admin = await adminClient(service, AdminRole.SUPPORT);
    const listed = async () => (await admin.ok(`{ flaggedAcquirerNotifications(limit: 200) { eventCode merchantReference status problem } }`)).flaggedAcquirerNotifications
      .filter((n: { merchantReference: string }) => n.merchantReference === id);
    await notifyAndApply('CHARGEBACK_REVERSED', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    expect(await listed()).toEqual([{ eventCode: 'CHARGEBACK_REVERSED', merchantReference: id, status: 'waiting', problem: expect.stringContaining('came before the event it follows') }]);
    await notifyAndApply('CHARGEBACK', dispute);
    // Pay 5,000: the seller ends at 4,250, as Adyen's own order (charged back, then reversed) leaves it.
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    const [row] = await service.em().getConnection().execute(`select "status" from "disputes" where "payment_id" = ?`, [id]);
    expect(row.status).toBe('reversed');
    expect(await listed()).toEqual([]);
    expect(await ourViolations()).toEqual([]);
  });

  test('a second chargeback before the reversal it follows: the seller is debited again once the reversal lands', async () => {
    const { shop, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', dispute);
    await notifyAndApply('SECOND_CHARGEBACK', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    await notifyAndApply('CHARGEBACK_REVERSED', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect(await ourViolations()).toEqual([]);
  });
});

describe('the same money never goes back twice', () => {
  test('while a chargeback stands, refund requests and approvals are refused with a clear message', async () => {
    const { id, shop, dispute } = await paidPayment();
    const support = await adminClient(service, AdminRole.SUPPORT);
    const finance = await adminClient(service, AdminRole.FINANCE);
    // Requested before the chargeback, approved after it.
    const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
    await notifyAndApply('CHARGEBACK', dispute);
    const message = 'A chargeback stands against this payment: the cardholder has the money back already, so it cannot be refunded while the dispute is open';
    const approval = await finance.run(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
    expect(approval.errors?.[0]).toMatchObject({ message, extensions: { code: 'REFUND_CHARGEBACK_STANDS' } });
    await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "chargeback") { id } }`, { id: requestRefund.id });
    const again = await support.run(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
    expect(again.errors?.[0]).toMatchObject({ message, extensions: { code: 'REFUND_CHARGEBACK_STANDS' } });
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect(await ourViolations()).toEqual([]);
  });

  test('while a chargeback stands the payment shows nothing refundable; once reversed, its whole amount again', async () => {
    const { id, dispute } = await paidPayment();
    const support = await adminClient(service, AdminRole.SUPPORT);
    const refundable = async () => (await support.ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { refundableAmount } } }`, { id })).searchPayments.items[0].refundableAmount;
    expect(await refundable()).toBe(AMOUNT);
    await notifyAndApply('CHARGEBACK', dispute);
    expect(await refundable()).toBe(0);
    await notifyAndApply('CHARGEBACK_REVERSED', dispute);
    expect(await refundable()).toBe(AMOUNT);
  });

  test('a refund approved before the chargeback is not sent once the chargeback stands', async () => {
    const { id, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', dispute);
    // Approved while no chargeback stood; the refund jobs pick it up after the chargeback landed.
    const em = service.em();
    const refund = em.create(Refund, { payment: id, amount: AMOUNT, reason: 'approved before the chargeback landed', status: 'approved', reviewedAt: new Date() });
    await em.flush();
    const refundId = refund.id;
    await eventually(async () => (await service.em().findOneOrFail(Refund, { id: refundId }, { refresh: true })).status === 'failed', 10_000, 'the refund jobs to take it');
    expect(await service.em().findOneOrFail(Refund, { id: refundId }, { refresh: true })).toMatchObject({ failureReason: 'chargeback_stands' });
    expect(adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === refundId)).toEqual([]);
    expect(await ourViolations()).toEqual([]);
  });

  test('a chargeback on a refunded payment goes to the platform dispute account, flagged for finance with the refund as evidence', async () => {
    const { id, shop, dispute } = await paidPayment();
    const refundOf = await refundThroughAdyen(id);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    await notifyAndApply('CHARGEBACK', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect((await disputeJournals(id)).filter((line) => line.includes('chargeback'))).toEqual([`platform_disputes chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`]);
    const [row] = await service.em().getConnection().execute(`select "seller_share", "evidence_refund_id", "contest_flagged_at" from "disputes" where "payment_id" = ?`, [id]);
    expect(row).toMatchObject({ seller_share: '0', evidence_refund_id: (await refundOf()).id });
    expect(row.contest_flagged_at).not.toBeNull();
    // Won back: the platform is credited, not the seller.
    await notifyAndApply('CHARGEBACK_REVERSED', dispute);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect(await ourViolations()).toEqual([]);
  });

  test('a chargeback after a partial refund is shared: the seller bears what it has not given back, the platform the rest', async () => {
    const { id, shop, dispute } = await paidPayment();
    const refundOf = await refundThroughAdyen(id, 2000);
    const refundId = (await refundOf()).id;
    expect(adyen.requestsTo('/payments/{paymentPspReference}/refunds').find((r) => r.body.reference === refundId)?.body.amount).toEqual({ currency: 'USD', value: 2000 });
    expect((await reload(id)).status).toBe('completed');
    await notifyAndApply('CHARGEBACK', dispute);
    expect((await disputeJournals(id)).filter((line) => line.includes('chargeback'))).toEqual([
      `seller_balance chargeback -${AMOUNT - 2000}`, `platform_disputes chargeback -2000`, `customer_funds chargeback ${AMOUNT}`,
    ]);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    const admin = await adminClient(service, AdminRole.FINANCE);
    const found = await admin.ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { dispute { liability sellerShare contestFlaggedAt } } } }`, { id });
    expect(found.searchPayments.items[0].dispute).toMatchObject({ liability: 'SHARED', sellerShare: AMOUNT - 2000 });
    expect(found.searchPayments.items[0].dispute.contestFlaggedAt).not.toBeNull();
    expect(await ourViolations()).toEqual([]);
  });

  test('check-ledger catches a seller who gave back more than the payment (broken on purpose, rolled back)', async () => {
    const { id, shop, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', dispute);
    const invariant = LEDGER_INVARIANTS.find((i) => i.name === 'given_back_within_amount')!;
    const client = new Client({ connectionString: testRun().databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      expect((await client.query(invariant.sql)).rows.filter((r) => r.subject === id)).toEqual([]);
      // A refund debit on top of the chargeback, booked behind the rules' back.
      await client.query(
        `insert into "ledger_entries" ("journal_id", "account", "kind", "amount", "seller_id", "payment_id", "created_at") values
          ('jrn_broken_on_purpose', 'seller_balance', 'refund', $1, $2, $3, now()), ('jrn_broken_on_purpose', 'customer_funds', 'refund', $4, null, $3, now())`,
        [-AMOUNT, shop.seller.id, id, AMOUNT],
      );
      expect((await client.query(invariant.sql)).rows.filter((r) => r.subject === id)).toEqual([{ subject: id, detail: `given back ${2 * AMOUNT} of ${AMOUNT}` }]);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});

describe('a refund the acquirer reverses', () => {
  test('REFUNDED_REVERSED credits the seller back, the payment is completed again and can be refunded again', async () => {
    const { id, shop } = await paidPayment();
    const refundOf = await refundThroughAdyen(id);
    const refund = await refundOf();
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    const reversal = { eventCode: 'REFUNDED_REVERSED', pspReference: `RR${refund.processorReference!.slice(2)}`, originalReference: (await reload(id)).processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: AMOUNT }, success: true };
    expect((await adyen.notify(reversal)).text).toBe('[accepted]');
    expect((await adyen.notify(reversal)).text).toBe('[accepted]');
    await applyNotifications();
    expect((await refundOf()).status).toBe('reversed');
    expect((await reload(id)).status).toBe('completed');
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    expect((await sellerClient(service.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');

    await refundThroughAdyen(id);
    expect((await reload(id)).status).toBe('refunded');
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect((await disputeJournals(id)).filter((line) => line.startsWith('seller_balance'))).toEqual([
      `seller_balance refund -${AMOUNT}`, `seller_balance refund_reversed ${AMOUNT}`, `seller_balance refund -${AMOUNT}`,
    ]);
    expect(await ourViolations()).toEqual([]);
  });
});

describe('a refund the card scheme rejects after Adyen carried it out', () => {
  test('REFUND_FAILED after REFUND: the refund fails, the seller is credited back and told, the payment can be refunded again', async () => {
    const { id, shop } = await paidPayment();
    const refundOf = await refundThroughAdyen(id);
    const refund = await refundOf();
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    const finance = await adminClient(service, AdminRole.FINANCE);
    const failedAfterSuccess = async () => (await finance.ok('{ workQueue { refundsFailedAfterSuccess } }')).workQueue.refundsFailedAfterSuccess as number;
    const before = await failedAfterSuccess();
    const failure = { eventCode: 'REFUND_FAILED', pspReference: refund.processorReference!, originalReference: (await reload(id)).processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: AMOUNT }, success: true, reason: 'Refund Failed: rejected by the card scheme' };
    expect((await adyen.notify(failure)).text).toBe('[accepted]');
    await applyNotifications();
    expect(await refundOf()).toMatchObject({ status: 'failed', failureReason: 'Refund Failed: rejected by the card scheme' });
    expect((await reload(id)).status).toBe('completed');
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    // Finance sees it on Home.
    expect(await failedAfterSuccess()).toBe(before + 1);
    const told = await service.em().getConnection().execute(`select "kind" from "mail_outbox" where "subject_id" = ? order by "created_at"`, [refund.id]);
    expect(told.map((row) => row.kind)).toContain('refund-failed');
    const events = await service.em().getConnection().execute(`select "type" from "webhook_events" where "payment_id" = ? order by "created_at"`, [id]);
    expect(events.map((row) => row.type)).toEqual(expect.arrayContaining(['payment.refunded', 'refund.failed']));

    // Refundable again, and the failure told again changes nothing.
    expect((await adyen.notify(failure)).text).toBe('[accepted]');
    await applyNotifications();
    await refundThroughAdyen(id);
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    expect((await disputeJournals(id)).filter((line) => line.startsWith('seller_balance'))).toEqual([
      `seller_balance refund -${AMOUNT}`, `seller_balance refund_failed ${AMOUNT}`, `seller_balance refund -${AMOUNT}`,
    ]);
    expect(await ourViolations()).toEqual([]);
  });

  test('REFUNDED_REVERSED before its REFUND waits for it, then both land: the seller ends as if they came in order', async () => {
    const { id, shop } = await paidPayment(7000);
    const support = await adminClient(service, AdminRole.SUPPORT);
    const finance = await adminClient(service, AdminRole.FINANCE);
    const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned", amount: 1000) { id } }`, { p: id });
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
    const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
    await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
    const refund = await refundOf();
    const original = (await reload(id)).processorReference!;
    const reversal = { eventCode: 'REFUNDED_REVERSED', pspReference: `RR${refund.processorReference!.slice(2)}`, originalReference: original, merchantReference: refund.id, amount: { currency: 'USD', value: 1000 }, success: true };
    expect((await adyen.notify(reversal)).text).toBe('[accepted]');
    await applyNotifications();
    expect((await refundOf()).status).toBe('processing');
    // 7,000 paid: 5,950 credited.
    expect(await balanceOf(shop.seller.id)).toBe(5950);
    expect((await adyen.notify({ eventCode: 'REFUND', pspReference: refund.processorReference!, originalReference: original, merchantReference: refund.id, amount: { currency: 'USD', value: 1000 }, success: true })).text).toBe('[accepted]');
    await applyNotifications();
    await eventually(async () => (await refundOf()).status === 'reversed', 10_000, 'the waiting reversal to follow its refund');
    expect(await balanceOf(shop.seller.id)).toBe(5950);
    expect(await ourViolations()).toEqual([]);
  });
});

describe('a cancellation Adyen refuses', () => {
  test('CANCEL_OR_REFUND success=false after a late authorisation of a failed payment is flagged for finance, not logged as confirmed', async () => {
    const shop = await service.createShop();
    const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
    ours.add(id).add(shop.seller.id);
    await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.refuse('2') } });
    expect((await reload(id)).status).toBe('failed');
    const late = { eventCode: 'AUTHORISATION', pspReference: `LATE${id.slice(4, 16)}`.toUpperCase(), merchantReference: id, amount: { currency: 'USD', value: VALID_PAYMENT.amount }, success: true };
    expect((await adyen.notify(late)).text).toBe('[accepted]');
    await applyNotifications();
    const refused = { eventCode: 'CANCEL_OR_REFUND', pspReference: `VOID${id.slice(4, 16)}`.toUpperCase(), originalReference: late.pspReference, merchantReference: id, amount: { currency: 'USD', value: VALID_PAYMENT.amount }, success: false, reason: 'Transaction not cancellable' };
    expect((await adyen.notify(refused)).text).toBe('[accepted]');
    await applyNotifications();
    const admin = await adminClient(service, AdminRole.FINANCE);
    const { flaggedAcquirerNotifications } = await admin.ok(`{ flaggedAcquirerNotifications(limit: 200) { eventCode merchantReference status problem } }`);
    expect(flaggedAcquirerNotifications).toContainEqual({ eventCode: 'CANCEL_OR_REFUND', merchantReference: id, status: 'flagged', problem: expect.stringContaining('refused to cancel') });
    const { workQueue } = await admin.ok('{ workQueue { acquirerNotificationsFlagged } }');
    expect(workQueue.acquirerNotificationsFlagged).toBeGreaterThan(0);
  });
});

describe('notification amounts are checked against what they name', () => {
  test('an AUTHORISATION for 1 EUR does not complete a 5,000 USD payment: kept, flagged, counted', async () => {
    const shop = await service.createShop();
    const id = (await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount: AMOUNT })).body.data.id as string;
    ours.add(id);
    await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.loseAnswer } });
    await adyen.notify({ eventCode: 'AUTHORISATION', pspReference: 'ONEEURO000000001', merchantReference: id, amount: { currency: 'EUR', value: 100 }, success: true });
    await applyNotifications();
    expect((await reload(id)).status).toBe('pending');
    expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
    // Reconciliation's look-up does not take a flagged item either.
    await service.services.reconciliation.sweep();
    expect((await reload(id)).status).toBe('pending');
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/acquirer_notifications_total\{event="AUTHORISATION",outcome="flagged"\} [1-9]/);
    // The genuine one then settles it.
    await adyen.notifyAuthorisation(id);
    await applyNotifications();
    expect((await reload(id)).status).toBe('completed');
  });

  test('a 10,000 JPY chargeback on a USD payment, and one above the payment, book nothing', async () => {
    const { id, shop, dispute } = await paidPayment();
    await notifyAndApply('CHARGEBACK', { ...dispute, amount: { currency: 'JPY', value: 10_000 } });
    await notifyAndApply('CHARGEBACK', { ...dispute, reference: `X${dispute.reference.slice(1)}`, amount: { currency: 'USD', value: AMOUNT + 1 } });
    expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    expect(await disputeJournals(id)).toEqual([]);
    const admin = await adminClient(service, AdminRole.FINANCE);
    const { flaggedAcquirerNotifications } = await admin.ok(`{ flaggedAcquirerNotifications(limit: 200) { eventCode merchantReference currency amountValue problem } }`);
    const mine = flaggedAcquirerNotifications.filter((n: { merchantReference: string }) => n.merchantReference === id);
    expect(mine).toEqual(expect.arrayContaining([
      expect.objectContaining({ currency: 'JPY', amountValue: 10_000, problem: 'currency JPY for a payment in usd' }),
      expect.objectContaining({ currency: 'USD', amountValue: AMOUNT + 1, problem: `amount ${AMOUNT + 1} for a payment of ${AMOUNT}` }),
    ]));
  });

  test('a refund notification for another amount does not settle the refund', async () => {
    const { id } = await paidPayment();
    const support = await adminClient(service, AdminRole.SUPPORT);
    const finance = await adminClient(service, AdminRole.FINANCE);
    const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
    const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
    await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
    await adyen.notify({ eventCode: 'REFUND', pspReference: (await refundOf()).processorReference!, merchantReference: requestRefund.id, amount: { currency: 'USD', value: 1 }, success: true });
    await applyNotifications();
    expect((await refundOf()).status).toBe('processing');
    expect((await reload(id)).status).toBe('completed');
  });
});

describe('notifications are accepted first, then applied', () => {
  test('a batch with one item without amount is accepted: the good item is applied, the malformed one kept as rejected and flagged', async () => {
    const { id, shop, dispute } = await paidPayment();
    const answer = await adyen.notifyBatch([
      { fields: { eventCode: 'CAPTURE', pspReference: 'MALFORMED0000001', merchantReference: id, amount: { currency: 'USD', value: AMOUNT }, success: true }, tamper: { malformed: (item) => delete item.amount } },
      { fields: { eventCode: 'CHARGEBACK', pspReference: dispute.reference, originalReference: dispute.paymentPspReference, merchantReference: id, amount: dispute.amount, success: true, reason: 'Fraud' } },
    ]);
    expect(answer).toMatchObject({ status: 200, text: '[accepted]' });
    await applyNotifications();
    expect(await balanceOf(shop.seller.id)).toBe(-FEE);
    const admin = await adminClient(service, AdminRole.SUPPORT);
    const { flaggedAcquirerNotifications } = await admin.ok(`{ flaggedAcquirerNotifications(limit: 200) { pspReference status problem } }`);
    expect(flaggedAcquirerNotifications).toContainEqual({ pspReference: 'MALFORMED0000001', status: 'rejected', problem: 'malformed item: amount.value, amount.currency missing or invalid' });
  });

  test('a failure while applying does not reach Adyen: the item is kept and applied by a retry', async () => {
    const { id, shop, dispute } = await paidPayment();
    // Hold the payment row: applying the chargeback waits for it and times out (DATABASE_STATEMENT_TIMEOUT_MS).
    const blocker = new Client({ connectionString: testRun().databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query(`select 1 from "payments" where "id" = $1 for update`, [id]);
    try {
      expect((await adyen.notifyDispute('CHARGEBACK', dispute)).text).toBe('[accepted]');
      await applyNotifications();
      const [row] = await service.em().getConnection().execute(`select "status", "attempts", "last_error" from "adyen_notifications" where "psp_reference" = ? and "event_code" = 'CHARGEBACK'`, [dispute.reference]);
      expect(row).toMatchObject({ status: 'received', attempts: 1 });
      expect(row.last_error).toMatch(/statement timeout|canceling statement/);
      expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
    // The retry (one second later) applies it, without Adyen sending anything again.
    await eventually(async () => (await balanceOf(shop.seller.id)) === -FEE, 10_000, 'the retry to book the chargeback');
    expect(await ourViolations()).toEqual([]);
  });

  test("check-ledger finds nothing wrong with this file's payments and sellers", async () => {
    expect(await ourViolations()).toEqual([]);
  });
});
