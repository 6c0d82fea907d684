import { AdminRole } from '../../../src/modules/admins/admin-role';
import { createSecretBox } from '../../../src/modules/identity/secret-box';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createAdmin } from '../../../src/modules/admins/admin.service';
import type { Admin } from '../../../src/modules/admins/admin.entity';
import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { movePayment, paymentEvent, type PaymentMove } from '../../../src/modules/payments/payment-moves';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { UndeclaredEffectError } from '../../../src/platform/lifecycle/lifecycle';
import { UnknownMoveError } from '../../../src/platform/lifecycle/lifecycle';
import { CheckoutStage, PaymentStatus } from '../../../src/modules/payments/payment-status';
import { createPayment } from '../../../src/modules/payments/payment.service';
import { createSellerWithShop, type NewShop } from '../../../src/modules/identity/shop-provisioning';
import { Withdrawal, WithdrawalStatus } from '../../../src/modules/withdrawals/withdrawal.entity';
import { approveWithdrawal, markWithdrawalPaid, rejectWithdrawal } from '../../../src/modules/withdrawals/withdrawal.service';
import { useModuleDatabase } from '../../support/module-database';

/**
 * The functions that apply a lifecycle move, against real PostgreSQL: each move is one conditional UPDATE,
 * and an UPDATE that changes no row (the payment or withdrawal is no longer in the state the move leaves)
 * must be reported as "not moved". It calls the services on the run's database, without a server, so the
 * mutation run of the state machines (docs/decisions/0015-mutation-testing.md) can afford it for every mutant.
 */
const database = useModuleDatabase({ poolSize: 2 });
let shop: NewShop;
let admin: Admin;
const em = (): EntityManager => database.em();

beforeAll(async () => {
  shop = await createSellerWithShop(em(), { email: `state-${randomBytes(4).toString('hex')}@example.com`, shopName: 'State Shop' }, createSecretBox(undefined));
  admin = (await createAdmin(em(), { email: `ops-${randomBytes(4).toString('hex')}@example.com`, role: AdminRole.FINANCE, tokenTtlDays: 90 })).admin;
});

async function newPayment(): Promise<string> {
  const { payment } = await createPayment(em(), shop.shop.id, { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  return payment.id;
}

const stored = (id: string) => em().findOneOrFail(Payment, { id });

/** Effects that only count: the engine must run exactly the ones the table declares, once, only when the row moved. */
function counting() {
  const calls: string[] = [];
  return {
    calls,
    effects: {
      journal: async () => void calls.push('journal'),
      event: async (_tx: unknown, _row: unknown, type: string) => void calls.push(type),
      receipt: async (_tx: unknown, _row: unknown, kind: string) => void calls.push(`mail ${kind}`),
    },
  };
}

/** Applies `move` with the effects the table declares for it (none, or any of journal, event and receipt). */
async function apply(id: string, move: PaymentMove, where = {}, changes = {}) {
  const { calls, effects } = counting();
  const spec = (await import('../../../src/modules/payments/payment.lifecycle')).PAYMENT_LIFECYCLE.moves[move] as { journal?: string; event?: string; receipt?: string };
  const moved = await movePayment(em(), move, {
    id,
    where,
    changes,
    effects: { ...(spec.journal ? { journal: effects.journal } : {}), ...(spec.event ? { event: effects.event } : {}), ...(spec.receipt ? { receipt: effects.receipt } : {}) },
  });
  return { moved: moved !== null, calls };
}

const toProcessing = (id: string) => em().nativeUpdate(Payment, { id }, { checkoutStage: CheckoutStage.PROCESSING });

describe('applying a payment move', () => {
  test('complete moves a processing payment once, with its journal and event; a second complete or a fail changes no row and writes nothing', async () => {
    const id = await newPayment();
    const other = await newPayment();
    await toProcessing(id);
    expect(await apply(id, 'complete')).toEqual({ moved: true, calls: ['journal', 'payment.completed', 'mail receipt'] });
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.COMPLETED, checkoutStage: CheckoutStage.FINISHED });
    expect((await stored(other)).status).toBe(PaymentStatus.PENDING);
    for (const move of ['complete', 'fail'] as PaymentMove[]) expect(await apply(id, move)).toEqual({ moved: false, calls: [] });
    expect((await stored(id)).status).toBe(PaymentStatus.COMPLETED);
  });

  test('refund leaves completed only, once; reverseRefund leaves refunded only, once (their refunds book the money)', async () => {
    const id = await newPayment();
    await toProcessing(id);
    expect((await apply(id, 'refund')).moved).toBe(false);
    expect(await apply(id, 'fail')).toEqual({ moved: true, calls: ['payment.failed'] });
    expect((await apply(id, 'refund')).moved).toBe(false);
    expect((await stored(id)).status).toBe(PaymentStatus.FAILED);
    const completed = await newPayment();
    await toProcessing(completed);
    await apply(completed, 'complete');
    expect((await apply(completed, 'reverseRefund')).moved).toBe(false);
    expect(await apply(completed, 'refund')).toEqual({ moved: true, calls: [] });
    expect((await apply(completed, 'refund')).moved).toBe(false);
    expect((await stored(completed)).status).toBe(PaymentStatus.REFUNDED);
    expect(await apply(completed, 'reverseRefund')).toEqual({ moved: true, calls: [] });
    expect((await apply(completed, 'reverseRefund')).moved).toBe(false);
    expect((await stored(completed)).status).toBe(PaymentStatus.COMPLETED);
  });

  test('the stage is part of the condition, the extra conditions too, and the changes are written only with the move', async () => {
    const id = await newPayment();
    expect((await apply(id, 'complete', {}, { failureCode: 'never' })).moved).toBe(false);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.CARD_REQUIRED, failureCode: null });
    expect((await apply(id, 'submitCard', { createdAt: { $lt: new Date(0) } })).moved).toBe(false);
    expect((await apply(id, 'submitCard')).moved).toBe(true);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.PROCESSING });
    expect((await apply(id, 'expire')).moved).toBe(false);
    expect((await apply(id, 'complete', {}, { failureCode: 'kept' })).moved).toBe(true);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.COMPLETED, checkoutStage: CheckoutStage.FINISHED, failureCode: 'kept' });
  });

  test('an unknown payment changes no row', async () => {
    expect((await apply('pay_000000000000000000000000', 'fail')).moved).toBe(false);
  });

  test('a move the table does not hold, or an effect it does not declare (or one it declares left out), writes nothing', async () => {
    const id = await newPayment();
    await expect(movePayment(em(), 'capture' as PaymentMove, { id })).rejects.toThrow(UnknownMoveError);
    await toProcessing(id);
    await expect(movePayment(em(), 'fail', { id })).rejects.toThrow(UndeclaredEffectError);
    const { effects } = counting();
    await expect(movePayment(em(), 'fail', { id, effects: { event: effects.event, journal: effects.journal } })).rejects.toThrow(UndeclaredEffectError);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.PROCESSING });
  });

  test('the outbox effect of payment moves writes the event the table names, with the payment in its body', async () => {
    const id = await newPayment();
    await toProcessing(id);
    expect(await movePayment(em(), 'fail', { id, changes: { failureCode: 'card_declined' }, effects: { event: paymentEvent('https://pay.example.test') } })).not.toBeNull();
    const event = await em().findOneOrFail(WebhookEvent, { paymentId: id });
    expect(event.type).toBe('payment.failed');
    expect(JSON.parse(event.body)).toMatchObject({ event: 'payment.failed', payment: { id, status: 'failed', checkout_url: `https://pay.example.test/checkout/${id}` } });
  });

  test('an effect that throws takes the move back with it', async () => {
    const id = await newPayment();
    await toProcessing(id);
    const boom = async () => {
      throw new Error('outbox down');
    };
    await expect(movePayment(em(), 'fail', { id, effects: { event: boom } })).rejects.toThrow('outbox down');
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.PROCESSING });
  });
});

type Action = 'approve' | 'reject' | 'pay';
const act: Record<Action, (id: string) => Promise<Withdrawal>> = {
  approve: (id) => approveWithdrawal(em(), admin, id),
  reject: (id) => rejectWithdrawal(em(), admin, id, '  duplicate request  '),
  pay: (id) => markWithdrawalPaid(em(), admin, id, ' TRF-42 '),
};

/** Each action, from each status: where it leads, or the conflict message naming the statuses it may leave. */
const TABLE: [Action, WithdrawalStatus, WithdrawalStatus | string][] = [
  ['approve', WithdrawalStatus.REQUESTED, WithdrawalStatus.APPROVED],
  ['approve', WithdrawalStatus.APPROVED, 'Only requested withdrawals can be approved (this one is approved)'],
  ['approve', WithdrawalStatus.REJECTED, 'Only requested withdrawals can be approved (this one is rejected)'],
  ['approve', WithdrawalStatus.PAID, 'Only requested withdrawals can be approved (this one is paid)'],
  ['reject', WithdrawalStatus.REQUESTED, WithdrawalStatus.REJECTED],
  ['reject', WithdrawalStatus.APPROVED, WithdrawalStatus.REJECTED],
  ['reject', WithdrawalStatus.REJECTED, 'Only requested or approved withdrawals can be rejected (this one is rejected)'],
  ['reject', WithdrawalStatus.PAID, 'Only requested or approved withdrawals can be rejected (this one is paid)'],
  ['pay', WithdrawalStatus.REQUESTED, 'Only approved withdrawals can be marked paid (this one is requested)'],
  ['pay', WithdrawalStatus.APPROVED, WithdrawalStatus.PAID],
  ['pay', WithdrawalStatus.REJECTED, 'Only approved withdrawals can be marked paid (this one is rejected)'],
  ['pay', WithdrawalStatus.PAID, 'Only approved withdrawals can be marked paid (this one is paid)'],
];

async function withdrawalIn(status: WithdrawalStatus): Promise<string> {
  const tx = em();
  const withdrawal = tx.create(Withdrawal, { seller: shop.seller, shop: shop.shop, amount: 1500, status });
  await tx.flush();
  return withdrawal.id;
}

const ledgerKinds = async (id: string) => (await em().find(LedgerEntry, { withdrawalId: id }, { orderBy: { amount: 'asc' } })).map((e) => [e.kind, e.amount]);
const auditOf = (id: string) => em().find(AuditEntry, { targetId: id });

describe('applying a withdrawal move', () => {
  test.each(TABLE.filter(([, , outcome]) => outcome.startsWith('Only')))('%s from %s: refused, nothing written', async (action, from, message) => {
    const id = await withdrawalIn(from);
    await expect(act[action](id)).rejects.toMatchObject({ code: 'WITHDRAWAL_STATE_CONFLICT', message });
    expect((await em().findOneOrFail(Withdrawal, { id })).status).toBe(from);
    expect(await ledgerKinds(id)).toEqual([]);
    expect(await auditOf(id)).toEqual([]);
  });

  test('approve: reviewed by the admin, audited, no money moves', async () => {
    const id = await withdrawalIn(WithdrawalStatus.REQUESTED);
    const approved = await act.approve(id);
    expect(approved).toMatchObject({ status: WithdrawalStatus.APPROVED, reviewedBy: { id: admin.id } });
    expect(await ledgerKinds(id)).toEqual([]);
    expect(await auditOf(id)).toEqual([
      expect.objectContaining({ action: 'withdrawal.approved', targetType: 'withdrawal', reason: null, details: { amount: 1500, shopId: shop.shop.id } }),
    ]);
  });

  test.each([WithdrawalStatus.REQUESTED, WithdrawalStatus.APPROVED])('reject from %s: the hold is released by a new journal, the reason kept', async (from) => {
    const id = await withdrawalIn(from);
    expect(await act.reject(id)).toMatchObject({ status: WithdrawalStatus.REJECTED, rejectionReason: 'duplicate request' });
    expect(await ledgerKinds(id)).toEqual([['withdrawal_release', -1500], ['withdrawal_release', 1500]]);
    expect(await auditOf(id)).toEqual([expect.objectContaining({ action: 'withdrawal.rejected', reason: 'duplicate request', details: { amount: 1500, shopId: shop.shop.id } })]);
  });

  test('pay from approved: the payout journal and the transfer reference', async () => {
    const id = await withdrawalIn(WithdrawalStatus.APPROVED);
    expect(await act.pay(id)).toMatchObject({ status: WithdrawalStatus.PAID, payoutReference: 'TRF-42' });
    expect(await ledgerKinds(id)).toEqual([['payout', -1500], ['payout', 1500]]);
    expect(await auditOf(id)).toEqual([
      expect.objectContaining({ action: 'withdrawal.paid', reason: null, details: { amount: 1500, shopId: shop.shop.id, payoutReference: 'TRF-42' } }),
    ]);
  });

  test('a payout reference is 1 to 200 characters after trimming', async () => {
    const id = await withdrawalIn(WithdrawalStatus.APPROVED);
    for (const reference of ['  ', 'r'.repeat(201)]) {
      await expect(Promise.resolve().then(() => markWithdrawalPaid(em(), admin, id, reference))).rejects.toMatchObject({ code: 'PAYOUT_REFERENCE_REQUIRED' });
    }
    expect(await markWithdrawalPaid(em(), admin, id, 'r'.repeat(200))).toMatchObject({ status: WithdrawalStatus.PAID, payoutReference: 'r'.repeat(200) });
  });

  test('a conflict names the status as stored now, even when the caller loaded the withdrawal before it moved', async () => {
    const id = await withdrawalIn(WithdrawalStatus.REQUESTED);
    const caller = em();
    await caller.findOneOrFail(Withdrawal, { id });
    await act.approve(id);
    await expect(approveWithdrawal(caller, admin, id)).rejects.toMatchObject({ message: 'Only requested withdrawals can be approved (this one is approved)' });
  });

  test('a missing payout reference is refused like a blank one', async () => {
    const id = await withdrawalIn(WithdrawalStatus.APPROVED);
    await expect(Promise.resolve().then(() => markWithdrawalPaid(em(), admin, id, null as unknown as string))).rejects.toMatchObject({ code: 'PAYOUT_REFERENCE_REQUIRED' });
  });

  test('an unknown withdrawal is not found, whatever the action', async () => {
    for (const action of ['approve', 'reject', 'pay'] as Action[]) {
      await expect(act[action]('wd_000000000000000000000000')).rejects.toMatchObject({ code: 'WITHDRAWAL_NOT_FOUND' });
    }
  });
});
