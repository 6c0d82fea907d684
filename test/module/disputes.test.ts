import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { Dispute, DisputeLiability, DisputeStatus } from '../../src/modules/disputes/dispute.entity';
import {
  applyDisputeNotice,
  chargebackStands,
  disputeOf as latestDisputeOf,
  paymentsWithChargebackStanding,
  reweighDisputes,
  type DisputeNotice,
} from '../../src/modules/disputes/dispute.service';
import { disputeFacts } from '../../src/modules/disputes/dispute-store';
import { completeInOneStatement } from '../../src/modules/checkout/completion-statement';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { checkLedger } from '../../src/modules/ledger/ledger-invariants';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { MailOutboxEntry } from '../../src/modules/notifications/mail-outbox.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { createPayment } from '../../src/modules/payments/payment.service';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { eachPaymentExportPage, PAYMENT_EXPORT_COLUMNS } from '../../src/modules/payments/payment-export';
import type { CsvCell } from '../../src/shared/csv';
import { approveRefund, executeRefund, requestRefund, reverseRefund, settleNotifiedRefund } from '../../src/modules/refunds/refund.service';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import type { CardProcessor } from '../../src/platform/processor/card-processor';
import { createLogger } from '../../src/shared/logger';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';

/**
 * Dispute notices (src/modules/disputes/dispute.service.ts) and the moves of the dispute table, on the run's database.
 * A chargeback takes the disputed amount from the liable account and the fee is kept (15%: a payment of 5000 cents
 * credits 4250, so a full chargeback leaves -750); a defence won gives the amount back. A notice that does not fit
 * moves nothing and is flagged. After each scenario the ledger invariants hold for this file's sellers and payments.
 */
// Enough connections for two notices of one payment to really race.
const db = useModuleDatabase({ poolSize: 4 });
const AMOUNT = 5000;
const NET = 4250;
const FEE = 750;

let requester: Admin;
let approver: Admin;
beforeAll(async () => {
  requester = await db.newAdmin(AdminRole.SUPPORT);
  approver = await db.newAdmin(AdminRole.FINANCE);
});

/** A completed payment of AMOUNT with the notice fields of its dispute: each event of one dispute carries one reference. */
async function disputedPayment(label: string, amount = AMOUNT) {
  const shop = await db.newShop(label);
  const paymentId = await db.completedPayment(shop, amount);
  const notice = (step: DisputeNotice['step'], changes: Partial<DisputeNotice> = {}) =>
    applyDisputeNotice(db.em(), { step, paymentId, reference: `DP-${paymentId}`, amount, currency: 'USD', reason: 'Fraudulent', ...changes });
  return { shop, paymentId, notice };
}

const balanceOf = async (shop: NewShop) => Number(await sellerBalance(db.em(), shop.seller.id));
const disputeOf = (paymentId: string) => db.em().findOne(Dispute, { payment: paymentId });
/** A payment's dispute journals, as "account kind amount", in the order booked. */
const disputeJournals = async (paymentId: string) =>
  (await db.em().find(LedgerEntry, { paymentId, kind: { $nin: ['payment', 'fee', 'refund'] } }, { orderBy: { id: 'asc' } })).map((e) => `${e.account} ${e.kind} ${e.amount}`);
const mailsOf = async (paymentId: string) =>
  (await db.em().find(MailOutboxEntry, { paymentId, kind: { $like: 'dispute-%' } }, { orderBy: { createdAt: 'asc', id: 'asc' } })).map((m) => `${m.kind} ${m.subjectId}`);

/** The invariants' violations about these sellers, payments or disputes (checkLedger reads the whole database). */
async function violationsAbout(...ids: string[]) {
  const disputes = await db.em().find(Dispute, { payment: { $in: ids } });
  const ours = new Set([...ids, ...disputes.map((d) => d.id)]);
  return (await checkLedger(db.em())).violations.filter((v) => ours.has(v.subject));
}

/** An acquirer that refunds at once: the refund is booked as a live answer books it. */
const refundingAcquirer = { refund: async ({ refundId }: { refundId: string }) => ({ kind: 'refunded', reference: `psp-${refundId}` }) } as unknown as CardProcessor;

/** An acquirer that takes a refund and says later (Adyen's `received`): the refund stays processing until its notification. */
const receivingAcquirer = { refund: async ({ refundId }: { refundId: string }) => ({ kind: 'pending', reference: `psp-${refundId}` }) } as unknown as CardProcessor;
const refundDeps = (processor: CardProcessor) => ({ processor, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes });

/** A refund of `amount` requested, approved by another admin and sent: the seller is debited `amount` (or, `inFlight`, it waits at the acquirer). */
async function refundCarriedOut(paymentId: string, amount: number, inFlight = false): Promise<string> {
  const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, amount);
  await approveRefund(db.em(), chargebackStands, approver, refund.id);
  expect(await executeRefund(db.em(), refundDeps(inFlight ? receivingAcquirer : refundingAcquirer), refund.id)).toBe(inFlight ? 'awaiting-acquirer' : 'refunded');
  return refund.id;
}

describe('the moves and the money', () => {
  test('an inquiry opens the dispute with the seller liable for its amount and moves no money; the seller is told once', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-inquiry');
    expect(await notice('open')).toEqual({ effect: 'opened' });
    const dispute = await disputeOf(paymentId);
    expect(dispute).toMatchObject({ status: DisputeStatus.NOTIFIED, amount: AMOUNT, sellerShare: AMOUNT, currency: 'usd', reason: 'Fraudulent', acquirerReference: `DP-${paymentId}`, contestFlaggedAt: null });
    expect(dispute!.liability()).toBe(DisputeLiability.SELLER);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await disputeJournals(paymentId)).toEqual([]);
    expect(await mailsOf(paymentId)).toEqual([`dispute-opened ${dispute!.id}`]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a chargeback debits the seller the whole disputed amount and the fee is kept: the balance goes below zero', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-chargeback');
    expect(await notice('chargeBack')).toEqual({ effect: 'moved' });
    // The seller bears it all: nothing for finance to contest.
    expect(await disputeOf(paymentId)).toMatchObject({ status: DisputeStatus.CHARGED_BACK, amount: AMOUNT, sellerShare: AMOUNT, evidenceRefund: null, contestFlaggedAt: null });
    expect(await balanceOf(shop)).toBe(-FEE);
    // No platform line: the platform bears nothing of it (a zero posting is not written).
    expect(await disputeJournals(paymentId)).toEqual([`seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`]);
    expect(await chargebackStands(db.em(), paymentId)).toBe(true);
    // A chargeback as first notice opens the dispute too, and tells the seller.
    expect((await mailsOf(paymentId)).map((m) => m.split(' ')[0])).toEqual(['dispute-opened']);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a partial chargeback debits only the amount disputed', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-partial');
    await notice('open');
    expect(await notice('chargeBack', { amount: 1200 })).toEqual({ effect: 'moved' });
    expect(await disputeOf(paymentId)).toMatchObject({ status: DisputeStatus.CHARGED_BACK, amount: 1200, sellerShare: 1200 });
    expect(await balanceOf(shop)).toBe(NET - 1200);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('defended, charged back again, won at pre-arbitration: each move books its own journal and the balance follows', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-won');
    const steps: [DisputeNotice['step'], DisputeStatus, number][] = [
      ['open', DisputeStatus.NOTIFIED, NET],
      ['chargeBack', DisputeStatus.CHARGED_BACK, -FEE],
      ['reverse', DisputeStatus.REVERSED, NET],
      ['secondChargeback', DisputeStatus.SECOND_CHARGEBACK, -FEE],
      ['win', DisputeStatus.WON, NET],
    ];
    for (const [step, status, balance] of steps) {
      await notice(step);
      expect([step, (await disputeOf(paymentId))!.status, await balanceOf(shop)]).toEqual([step, status, balance]);
    }
    expect(await disputeJournals(paymentId)).toEqual([
      `seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`,
      `seller_balance chargeback_reversed ${AMOUNT}`, `customer_funds chargeback_reversed -${AMOUNT}`,
      `seller_balance second_chargeback -${AMOUNT}`, `customer_funds second_chargeback ${AMOUNT}`,
      `seller_balance dispute_won ${AMOUNT}`, `customer_funds dispute_won -${AMOUNT}`,
    ]);
    expect(await chargebackStands(db.em(), paymentId)).toBe(false);
    // Only the moves that decide it are told besides the opening: won, here.
    const id = (await disputeOf(paymentId))!.id;
    expect(await mailsOf(paymentId)).toEqual([`dispute-opened ${id}`, `dispute-decided ${id}:won`]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a chargeback not defended is lost: the debit stands, and a later arbitration win gives it back', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-lost');
    await notice('chargeBack');
    expect(await notice('lose')).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.LOST);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await chargebackStands(db.em(), paymentId)).toBe(true);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);

    expect(await notice('win')).toEqual({ effect: 'moved' });
    expect(await balanceOf(shop)).toBe(NET);
    const id = (await disputeOf(paymentId))!.id;
    expect(await mailsOf(paymentId)).toEqual([`dispute-opened ${id}`, `dispute-decided ${id}:lost`, `dispute-decided ${id}:won`]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('an inquiry that expires closes with no money moved', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-closed');
    await notice('open');
    expect(await notice('close')).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.CLOSED);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await disputeJournals(paymentId)).toEqual([]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });
});

describe('the same notice twice moves nothing twice', () => {
  test('every notice again (the acquirer retries) is nothing to do: one dispute, one debit, one mail', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-repeat');
    expect(await notice('open')).toEqual({ effect: 'opened' });
    expect(await notice('open')).toEqual({ effect: 'nothing-to-do' });
    expect(await notice('chargeBack')).toEqual({ effect: 'moved' });
    expect(await notice('chargeBack')).toEqual({ effect: 'nothing-to-do' });
    expect(await db.em().count(Dispute, { payment: paymentId })).toBe(1);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await disputeJournals(paymentId)).toHaveLength(2);
    expect(await mailsOf(paymentId)).toHaveLength(1);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('two chargebacks of one dispute at once: one moves, the other finds nothing to do, and the seller is debited once', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-race');
    const outcomes = await Promise.all([notice('chargeBack'), notice('chargeBack')]);
    expect(outcomes.map((o) => o.effect).sort()).toEqual(['moved', 'nothing-to-do']);
    expect(await db.em().count(Dispute, { payment: paymentId })).toBe(1);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await disputeJournals(paymentId)).toHaveLength(2);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });
});

describe('a notice that does not fit is flagged and moves nothing', () => {
  test('a notice for a payment that does not exist is flagged and creates no dispute', async () => {
    const missing = `pay_${'0'.repeat(24)}`;
    const outcome = await applyDisputeNotice(db.em(), { step: 'chargeBack', paymentId: missing, reference: 'DP-missing', amount: 1000, currency: 'USD', reason: null });
    expect(outcome).toEqual({ effect: 'flagged', problem: `no payment ${missing}` });
    expect(await db.em().count(Dispute, { payment: missing })).toBe(0);
    expect(await db.em().count(LedgerEntry, { paymentId: missing })).toBe(0);
  });

  test('a payment never charged cannot be disputed', async () => {
    const shop = await db.newShop('dispute-pending');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
    const outcome = await applyDisputeNotice(db.em(), { step: 'chargeBack', paymentId: payment.id, reference: 'DP-pending', amount: AMOUNT, currency: 'USD', reason: null });
    expect(outcome).toEqual({ effect: 'flagged', problem: `payment ${payment.id} is pending: it was never charged here` });
    expect(await disputeOf(payment.id)).toBeNull();
    expect(await balanceOf(shop)).toBe(0);
  });

  test('another currency, more than the payment, or no amount at all: flagged, no dispute opened', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-money');
    expect(await notice('chargeBack', { currency: 'JPY', amount: 10_000 })).toEqual({ effect: 'flagged', problem: 'currency JPY for a payment in usd' });
    expect(await notice('chargeBack', { amount: AMOUNT + 1 })).toEqual({ effect: 'flagged', problem: `amount ${AMOUNT + 1} for a payment of ${AMOUNT}` });
    expect(await notice('open', { amount: 0 })).toEqual({ effect: 'flagged', problem: `amount 0 for a payment of ${AMOUNT}` });
    expect(await disputeOf(paymentId)).toBeNull();
    expect(await balanceOf(shop)).toBe(NET);
    // The whole amount, in the acquirer's upper-case code, fits.
    expect(await notice('chargeBack', { amount: AMOUNT })).toEqual({ effect: 'moved' });
  });

  test('a step that moves no money and does not apply (the defence period of a mere inquiry ended) is nothing to do', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-order');
    await notice('open');
    expect(await notice('lose')).toEqual({ effect: 'nothing-to-do' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.NOTIFIED);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await disputeJournals(paymentId)).toEqual([]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a later step of another amount than the chargeback is flagged', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-mismatch');
    await notice('chargeBack');
    expect(await notice('reverse', { amount: 4000 })).toEqual({ effect: 'flagged', problem: `reverse of 4000 for a dispute of ${AMOUNT}` });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.CHARGED_BACK);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });
});

describe('events applied in the acquirer\'s order, whatever order they arrive in', () => {
  /** A notice dated `minute` minutes into the dispute: the acquirer's order, not the arrival's. */
  const at = (minute: number) => ({ occurredAt: new Date(Date.UTC(2026, 0, 1, 0, minute)) });

  test('a reversal before its chargeback waits, and is applied with the chargeback when it lands: the seller ends where the acquirer put it', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-reverse-first');
    expect(await notice('reverse', at(2))).toEqual({ effect: 'waiting', problem: 'reverse came before the event it follows: the dispute is notified' });
    expect(await balanceOf(shop)).toBe(NET);
    expect(await notice('chargeBack', at(1))).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.REVERSED);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await disputeJournals(paymentId)).toEqual([
      `seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`,
      `seller_balance chargeback_reversed ${AMOUNT}`, `customer_funds chargeback_reversed -${AMOUNT}`,
    ]);
    // The reversal told again (the inbox wakes it) finds it applied.
    expect(await notice('reverse', at(2))).toEqual({ effect: 'nothing-to-do' });
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a second chargeback before the reversal it follows waits: the seller is debited again once the reversal lands', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-second-first');
    await notice('chargeBack', at(1));
    expect((await notice('secondChargeback', at(3))).effect).toBe('waiting');
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await notice('reverse', at(2))).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.SECOND_CHARGEBACK);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a whole dispute told backwards ends as told forwards', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-backwards');
    const steps: DisputeNotice['step'][] = ['open', 'chargeBack', 'reverse', 'secondChargeback', 'win'];
    for (const [minute, step] of [...steps.entries()].reverse()) await notice(step, at(minute));
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.WON);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a late event that changes the path but not the end (lost told before the reversal and second chargeback) books nothing more', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-late-path');
    await notice('chargeBack', at(1));
    expect(await notice('lose', at(4))).toEqual({ effect: 'moved' });
    expect((await notice('reverse', at(2))).effect).toBe('waiting');
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await notice('secondChargeback', at(3))).toEqual({ effect: 'nothing-to-do' });
    expect(await notice('reverse', at(2))).toEqual({ effect: 'nothing-to-do' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.LOST);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a late event a decided dispute cannot place waits and moves nothing', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-contradicted');
    await notice('open', at(0));
    await notice('close', at(5));
    expect(await notice('chargeBack', at(1))).toEqual({ effect: 'waiting', problem: 'chargeBack does not fit a dispute that is closed: it waits for the events that place it' });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.CLOSED);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a dispute of a payment whose authorisation has not reached us waits for it', async () => {
    const shop = await db.newShop('dispute-processing');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
    await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
    const outcome = await applyDisputeNotice(db.em(), { step: 'chargeBack', paymentId: payment.id, reference: 'DP-processing', amount: AMOUNT, currency: 'USD', reason: null });
    expect(outcome).toEqual({ effect: 'waiting', problem: `payment ${payment.id} is not settled here yet: the dispute waits for its authorisation` });
    expect(await disputeOf(payment.id)).toBeNull();
  });
});

describe('a payment disputed again', () => {
  test('a chargeback with a new dispute reference after an inquiry closed is a dispute of its own, with its own money', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-second-dispute');
    await notice('open');
    await notice('close');
    expect(await notice('chargeBack', { reference: `DP2-${paymentId}` })).toEqual({ effect: 'moved' });
    const disputes = await db.em().find(Dispute, { payment: paymentId }, { orderBy: { openedAt: 'asc', id: 'asc' } });
    expect(disputes.map((d) => [d.acquirerReference, d.status])).toEqual(expect.arrayContaining([[`DP-${paymentId}`, DisputeStatus.CLOSED], [`DP2-${paymentId}`, DisputeStatus.CHARGED_BACK]]));
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await chargebackStands(db.em(), paymentId)).toBe(true);
    expect(await notice('reverse', { reference: `DP2-${paymentId}` })).toEqual({ effect: 'moved' });
    expect(await balanceOf(shop)).toBe(NET);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });
});

describe('the same money never leaves the seller twice', () => {
  test('after a partial refund the chargeback is shared: the seller bears what it has not given back, the platform the rest, flagged to contest', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-shared');
    const refundId = await refundCarriedOut(paymentId, 2000);
    expect(await balanceOf(shop)).toBe(NET - 2000);
    expect(await notice('chargeBack')).toEqual({ effect: 'moved' });
    const dispute = await db.em().findOneOrFail(Dispute, { payment: paymentId }, { populate: ['evidenceRefund'] });
    expect(dispute).toMatchObject({ status: DisputeStatus.CHARGED_BACK, amount: AMOUNT, sellerShare: AMOUNT - 2000 });
    expect(dispute.liability()).toBe(DisputeLiability.SHARED);
    expect(dispute.evidenceRefund?.id).toBe(refundId);
    expect(dispute.contestFlaggedAt).toBeInstanceOf(Date);
    expect(await disputeJournals(paymentId)).toEqual([`seller_balance chargeback -${AMOUNT - 2000}`, 'platform_disputes chargeback -2000', `customer_funds chargeback ${AMOUNT}`]);
    // 4250 - 2000 refunded - 3000 charged back.
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
    // A reversal weighs no share anew: the dispute stays flagged as the chargeback left it.
    expect(await notice('reverse')).toEqual({ effect: 'moved' });
    expect(await db.em().findOneOrFail(Dispute, dispute.id)).toMatchObject({ sellerShare: AMOUNT - 2000, contestFlaggedAt: dispute.contestFlaggedAt });
  });

  test('on a payment refunded in full the platform bears the chargeback, and a reversal credits the platform, not the seller', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-platform');
    await refundCarriedOut(paymentId, AMOUNT);
    expect((await db.em().findOneOrFail(Payment, { id: paymentId })).status).toBe(PaymentStatus.REFUNDED);
    expect(await notice('chargeBack')).toEqual({ effect: 'moved' });
    const dispute = (await disputeOf(paymentId))!;
    expect(dispute.sellerShare).toBe(0);
    expect(dispute.liability()).toBe(DisputeLiability.PLATFORM);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await notice('reverse')).toEqual({ effect: 'moved' });
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await disputeJournals(paymentId)).toEqual([
      `platform_disputes chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`,
      `platform_disputes chargeback_reversed ${AMOUNT}`, `customer_funds chargeback_reversed -${AMOUNT}`,
    ]);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a refund sent while the chargeback is reversed lowers the seller\'s share of a second chargeback, and a win gives back only that share', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-refund-between');
    await notice('chargeBack');
    await notice('reverse');
    expect(await balanceOf(shop)).toBe(NET);
    await refundCarriedOut(paymentId, AMOUNT);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await notice('secondChargeback')).toEqual({ effect: 'moved' });
    const dispute = (await disputeOf(paymentId))!;
    expect(dispute).toMatchObject({ status: DisputeStatus.SECOND_CHARGEBACK, sellerShare: 0 });
    expect(dispute.contestFlaggedAt).toBeInstanceOf(Date);
    // The seller gave the money back once, by the refund: the platform bears the second chargeback.
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await notice('win')).toEqual({ effect: 'moved' });
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a chargeback while a refund is in flight: when the refund then fails, the seller bears the whole dispute again', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-refund-in-flight', 8000);
    const refundId = await refundCarriedOut(paymentId, 3000, true);
    expect(await notice('chargeBack', { amount: 8000 })).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.sellerShare).toBe(5000);
    expect(await settleNotifiedRefund(db.em(), refundDeps(receivingAcquirer), refundId, { kind: 'declined', reason: 'Refund Failed' })).toEqual({ effect: 'settled' });
    expect((await disputeOf(paymentId))!.sellerShare).toBe(8000);
    // 8000 paid: 6800 credited, the whole 8000 charged back.
    expect(await balanceOf(shop)).toBe(-1200);
    expect((await disputeJournals(paymentId)).filter((line) => line.includes('dispute_share'))).toEqual(['seller_balance dispute_share -3000', 'platform_disputes dispute_share 3000']);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a chargeback while a refund is in flight: when the refund is carried out and then reversed, the seller bears the whole dispute again', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-refund-reversed', 8000);
    const refundId = await refundCarriedOut(paymentId, 3000, true);
    await notice('chargeBack', { amount: 8000 });
    expect(await settleNotifiedRefund(db.em(), refundDeps(receivingAcquirer), refundId, { kind: 'refunded', reference: 'psp-r' })).toEqual({ effect: 'settled' });
    expect((await disputeOf(paymentId))!.sellerShare).toBe(5000);
    expect(await balanceOf(shop)).toBe(6800 - 3000 - 5000);
    expect(await reverseRefund(db.em(), refundDeps(receivingAcquirer), refundId, { amount: 3000, currency: 'USD' })).toEqual({ effect: 'moved' });
    expect((await disputeOf(paymentId))!.sellerShare).toBe(8000);
    expect(await balanceOf(shop)).toBe(-1200);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test("check-ledger catches a refund left carried out that the acquirer's applied notification says failed", async () => {
    const { paymentId } = await disputedPayment('dispute-refund-failed-unbooked');
    const refundId = await refundCarriedOut(paymentId, 1000);
    // The acquirer's REFUND_FAILED, recorded as applied while the refund stayed refunded: what the old inbox left behind.
    await db.em().getConnection().execute(
      `insert into "adyen_notifications" ("psp_reference", "event_code", "success", "merchant_reference", "amount_value", "currency", "status", "order_key")
        values (?, 'REFUND_FAILED', true, ?, 1000, 'USD', 'applied', ?)`,
      [`RF-${refundId}`, refundId, `psp-${paymentId}`],
    );
    const caught = async () => (await checkLedger(db.em())).violations.filter((v) => v.invariant === 'refunds_match_acquirer' && v.subject === refundId);
    expect(await caught()).toEqual([{ invariant: 'refunds_match_acquirer', subject: refundId, detail: 'refunded, but the acquirer said REFUND_FAILED' }]);
    expect(await settleNotifiedRefund(db.em(), refundDeps(refundingAcquirer), refundId, { kind: 'declined', reason: 'Refund Failed' })).toEqual({ effect: 'settled' });
    expect(await caught()).toEqual([]);
    expect(await violationsAbout(paymentId)).toEqual([]);
  });

  test("the payments export's net is what the ledger left the seller: a chargeback counts", async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-export-net');
    const netInExport = async () => {
      const rows: CsvCell[][] = [];
      await eachPaymentExportPage(db.em(), shop.seller.id, {}, async (page) => void rows.push(...page));
      const net = PAYMENT_EXPORT_COLUMNS.indexOf('net');
      return rows.find((row) => row[0] === paymentId)![net];
    };
    expect(await netInExport()).toBe('42.50');
    await notice('chargeBack');
    expect(await netInExport()).toBe('-7.50');
    await notice('reverse');
    expect(await netInExport()).toBe('42.50');
  });

  test('while a chargeback stands no refund may be requested; once it is reversed one may', async () => {
    const { paymentId, notice } = await disputedPayment('dispute-no-refund');
    await notice('chargeBack');
    expect((await refusedWith(requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 100))).code).toBe('REFUND_CHARGEBACK_STANDS');
    await notice('reverse');
    expect((await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 100)).amount).toBe(100);
  });
});

describe('what a notice reads and keeps', () => {
  /** A notice dated `minute` minutes into the dispute: the acquirer's order, not the arrival's. */
  const at = (minute: number) => ({ occurredAt: new Date(Date.UTC(2026, 0, 1, 0, minute)) });
  const factsOf = async (paymentId: string) => (await disputeFacts(db.em(), (await disputeOf(paymentId))!.id)).map((fact) => fact.step);

  test("a payment's dispute is its latest; the payments a chargeback stands against are told apart among others", async () => {
    const again = await disputedPayment('dispute-read-again');
    await again.notice('open');
    await again.notice('close');
    await again.notice('chargeBack', { reference: `DP2-${again.paymentId}` });
    const lost = await disputedPayment('dispute-read-lost');
    await lost.notice('chargeBack');
    await lost.notice('lose');
    const reversed = await disputedPayment('dispute-read-reversed');
    await reversed.notice('chargeBack');
    await reversed.notice('reverse');
    const inquiry = await disputedPayment('dispute-read-inquiry');
    await inquiry.notice('open');
    const none = await disputedPayment('dispute-read-none');

    expect(await latestDisputeOf(db.em(), again.paymentId)).toMatchObject({ acquirerReference: `DP2-${again.paymentId}`, status: DisputeStatus.CHARGED_BACK });
    expect(await latestDisputeOf(db.em(), none.paymentId)).toBeNull();
    const ids = [again, lost, reversed, inquiry, none].map((p) => p.paymentId);
    expect(await paymentsWithChargebackStanding(db.em(), ids)).toEqual(new Set([again.paymentId, lost.paymentId]));
  });

  test('only the chargeback says how much is disputed: an inquiry closed with another amount moves, keeping its amount, and a later reason replaces the first', async () => {
    const { paymentId, notice } = await disputedPayment('dispute-inquiry-amount');
    await notice('open', { reason: 'Fraudulent' });
    expect(await notice('close', { amount: 4000, reason: 'Not received' })).toEqual({ effect: 'moved' });
    expect(await disputeOf(paymentId)).toMatchObject({ status: DisputeStatus.CLOSED, amount: AMOUNT, reason: 'Not received' });
    // A notice with no reason leaves the one told.
    const other = await disputedPayment('dispute-keeps-reason');
    await other.notice('chargeBack', { reason: 'Fraudulent' });
    expect(await other.notice('reverse', { reason: null })).toEqual({ effect: 'moved' });
    expect((await disputeOf(other.paymentId))!.reason).toBe('Fraudulent');
  });

  test('after an inquiry and its chargeback, a later step of another amount is flagged; an inquiry told after the chargeback, of another amount, is not', async () => {
    const { paymentId, notice } = await disputedPayment('dispute-mismatch-after-inquiry');
    await notice('open');
    await notice('chargeBack');
    expect(await notice('reverse', { amount: 4000 })).toEqual({ effect: 'flagged', problem: `reverse of 4000 for a dispute of ${AMOUNT}` });
    expect((await disputeOf(paymentId))!.status).toBe(DisputeStatus.CHARGED_BACK);

    const late = await disputedPayment('dispute-late-inquiry');
    await late.notice('chargeBack');
    expect(await late.notice('open', { amount: 4000 })).toEqual({ effect: 'nothing-to-do' });
    expect(await disputeOf(late.paymentId)).toMatchObject({ status: DisputeStatus.CHARGED_BACK, amount: AMOUNT });
  });

  test('a step told again, even of another amount, is nothing to do, and its event is kept once', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-told-again');
    await notice('chargeBack');
    await notice('reverse');
    expect(await notice('reverse', { amount: 4000 })).toEqual({ effect: 'nothing-to-do' });
    expect(await factsOf(paymentId)).toEqual(['chargeBack', 'reverse']);
    expect(await balanceOf(shop)).toBe(NET);
  });

  test('a chargeback told again while a second chargeback waits for its reversal is nothing to do; the second chargeback still waits', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-told-again-waiting');
    await notice('chargeBack', at(1));
    expect((await notice('secondChargeback', at(3))).effect).toBe('waiting');
    expect(await notice('chargeBack', at(1))).toEqual({ effect: 'nothing-to-do' });
    expect(await factsOf(paymentId)).toEqual(['chargeBack', 'secondChargeback']);
    expect(await balanceOf(shop)).toBe(-FEE);
  });

  test('a dispute whose first notice moves nothing (a loss of no chargeback) is opened, told to the seller, and the notice is nothing to do', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-first-loss');
    expect(await notice('lose')).toEqual({ effect: 'nothing-to-do' });
    const dispute = (await disputeOf(paymentId))!;
    expect(dispute.status).toBe(DisputeStatus.NOTIFIED);
    expect(await mailsOf(paymentId)).toEqual([`dispute-opened ${dispute.id}`]);
    expect(await balanceOf(shop)).toBe(NET);
  });

  test('a partial chargeback that lands after the steps following it: each step weighs the amount the chargeback set', async () => {
    const { shop, paymentId, notice } = await disputedPayment('dispute-partial-late');
    await notice('open', at(0));
    expect((await notice('reverse', { amount: 1200, ...at(2) })).effect).toBe('waiting');
    expect((await notice('secondChargeback', { amount: 1200, ...at(3) })).effect).toBe('waiting');
    expect(await notice('chargeBack', { amount: 1200, ...at(1) })).toEqual({ effect: 'moved' });
    expect(await disputeOf(paymentId)).toMatchObject({ status: DisputeStatus.SECOND_CHARGEBACK, amount: 1200, sellerShare: 1200 });
    expect(await balanceOf(shop)).toBe(NET - 1200);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('the evidence for finance is the latest refund the seller gave back', async () => {
    const { paymentId, notice } = await disputedPayment('dispute-latest-evidence');
    await refundCarriedOut(paymentId, 1000);
    const latest = await refundCarriedOut(paymentId, 1500);
    await notice('chargeBack');
    const dispute = await db.em().findOneOrFail(Dispute, { payment: paymentId }, { populate: ['evidenceRefund'] });
    expect([dispute.sellerShare, dispute.evidenceRefund?.id]).toEqual([AMOUNT - 2500, latest]);
  });

  test('a notice applied on a unit of work that read the payment and dispute earlier sees them as stored now', async () => {
    const shop = await db.newShop('dispute-stale-reads');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
    await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
    const em = db.em();
    expect((await em.findOneOrFail(Payment, { id: payment.id })).status).toBe(PaymentStatus.PENDING);
    const done = await completeInOneStatement(db.em(), {
      payment: { ...payment, test: false },
      shop: { id: shop.shop.id, name: shop.shop.name },
      processorReference: `psp-${payment.id}`,
      threeDsOutcome: undefined,
      baseUrl: 'https://pay.example',
    });
    expect(done.completed).toBe(true);
    const notice = (step: DisputeNotice['step']) => applyDisputeNotice(em, { step, paymentId: payment.id, reference: `DP-${payment.id}`, amount: AMOUNT, currency: 'USD', reason: null });
    // The payment read while its card was at the acquirer: the notice does not wait for an authorisation that came.
    expect(await notice('open')).toEqual({ effect: 'opened' });
    // The dispute read while notified, then charged back elsewhere: the reversal moves it from where it is.
    expect((await em.findOneOrFail(Dispute, { payment: payment.id })).status).toBe(DisputeStatus.NOTIFIED);
    expect(await applyDisputeNotice(db.em(), { step: 'chargeBack', paymentId: payment.id, reference: `DP-${payment.id}`, amount: AMOUNT, currency: 'USD', reason: null })).toEqual({ effect: 'moved' });
    expect(await notice('reverse')).toEqual({ effect: 'moved' });
    expect((await disputeOf(payment.id))!.status).toBe(DisputeStatus.REVERSED);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await violationsAbout(shop.seller.id, payment.id)).toEqual([]);
  });
});

describe("a refund's change weighs the standing chargebacks again", () => {
  /** A chargeback of 8000 standing while a refund of 3000 is in flight: the seller bears 5000. */
  async function chargedBackWhileRefunding(label: string) {
    const disputed = await disputedPayment(label, 8000);
    const refundId = await refundCarriedOut(disputed.paymentId, 3000, true);
    await disputed.notice('chargeBack', { amount: 8000 });
    return { ...disputed, refundId };
  }
  const reweigh = (paymentId: string) => db.em().transactional((tx) => reweighDisputes(tx, paymentId));

  test('on a unit of work of its own: the share follows what the seller gave back, booked once, and the dispute is marked changed', async () => {
    const { shop, paymentId, refundId } = await chargedBackWhileRefunding('dispute-reweigh');
    const before = (await disputeOf(paymentId))!;
    expect(before.sellerShare).toBe(5000);
    // Nothing changed: nothing is written.
    await reweigh(paymentId);
    expect(await disputeOf(paymentId)).toMatchObject({ sellerShare: 5000, updatedAt: before.updatedAt });
    expect((await disputeJournals(paymentId)).filter((line) => line.includes('dispute_share'))).toEqual([]);

    // The refund failed at the acquirer, as its move would have stored it: the seller bears the whole dispute again.
    await db.em().nativeUpdate(Refund, { id: refundId }, { status: RefundStatus.FAILED });
    await reweigh(paymentId);
    const after = (await disputeOf(paymentId))!;
    expect(after.sellerShare).toBe(8000);
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect((await disputeJournals(paymentId)).filter((line) => line.includes('dispute_share'))).toEqual(['seller_balance dispute_share -3000', 'platform_disputes dispute_share 3000']);
    expect(await balanceOf(shop)).toBe(-1200);
  });

  test('a unit of work that read the dispute before reads it again', async () => {
    const { paymentId, refundId } = await chargedBackWhileRefunding('dispute-reweigh-stale');
    await db.em().nativeUpdate(Refund, { id: refundId }, { status: RefundStatus.FAILED });
    await db.em().transactional(async (tx) => {
      const read = await tx.findOneOrFail(Dispute, { payment: paymentId });
      expect(read.sellerShare).toBe(5000);
      // Weighed and booked meanwhile by another unit of work.
      await reweigh(paymentId);
      await reweighDisputes(tx, paymentId);
    });
    expect((await disputeOf(paymentId))!.sellerShare).toBe(8000);
    expect((await disputeJournals(paymentId)).filter((line) => line.includes('dispute_share'))).toHaveLength(2);
  });
});
