import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { completeInOneStatement, type CompletionFacts } from '../../src/modules/checkout/completion-statement';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { PAYMENT_LIFECYCLE } from '../../src/modules/payments/payment.lifecycle';
import { Payment } from '../../src/modules/payments/payment.entity';
import { createPayment } from '../../src/modules/payments/payment.service';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { UndeclaredEffectError } from '../../src/platform/lifecycle/lifecycle';
import type { Lifecycle } from '../../src/platform/lifecycle/lifecycle';
import { useModuleDatabase } from '../support/module-database';

/**
 * The card completion is one statement for speed, but it is the payment table's `complete` move in the move
 * engine's one-statement form: what the table declares is what the statement writes. Each test changes a
 * declared effect of a copy of the table and watches the hot path follow, or refuse to run without the part.
 */
const db = useModuleDatabase();

/** The payment table with its `complete` move changed. */
function tableWithComplete(change: (move: Record<string, unknown>) => void): Lifecycle {
  const complete: Record<string, unknown> = { ...PAYMENT_LIFECYCLE.moves.complete };
  change(complete);
  return { ...PAYMENT_LIFECYCLE, moves: { ...PAYMENT_LIFECYCLE.moves, complete } } as unknown as Lifecycle;
}

/** A payment claimed for a card, ready for its completion. */
async function claimedPayment(label: string): Promise<CompletionFacts> {
  const shop = await db.newShop(label);
  const { payment } = await createPayment(db.em(), shop.shop.id, { amount: 2000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  expect(await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 })).toBe(true);
  return { payment: { ...payment, test: false }, shop: { id: shop.shop.id, name: shop.shop.name }, processorReference: `psp-${payment.id}`, threeDsOutcome: undefined, baseUrl: 'https://pay.example' };
}

const kindsOf = async (paymentId: string) => (await db.em().find(LedgerEntry, { paymentId }, { orderBy: { id: 'asc' } })).map((e) => `${e.kind} ${e.amount}`);

test('as the table stands: the move, its journal with the fee, and its event', async () => {
  const facts = await claimedPayment('table-as-is');
  expect((await completeInOneStatement(db.em(), facts)).completed).toBe(true);
  expect(await kindsOf(facts.payment.id)).toEqual(['payment -2000', 'payment 2000', 'fee -300', 'fee 300']);
  expect((await db.em().find(WebhookEvent, { paymentId: facts.payment.id })).map((e) => e.type)).toEqual(['payment.completed']);
  expect((await db.em().findOneOrFail(Payment, { id: facts.payment.id })).status).toBe('completed');
});

test("a changed journal changes what the statement books: the table's journal picks the postings", async () => {
  const facts = await claimedPayment('table-journal');
  const table = tableWithComplete((move) => (move.journal = 'test_payment'));
  expect((await completeInOneStatement(db.em(), facts, table)).completed).toBe(true);
  expect(await kindsOf(facts.payment.id)).toEqual(['test_payment -2000', 'test_payment 2000']);
});

test('a changed event type is the event the statement writes', async () => {
  const facts = await claimedPayment('table-event');
  const table = tableWithComplete((move) => (move.event = 'payment.failed'));
  await completeInOneStatement(db.em(), facts, table);
  expect((await db.em().find(WebhookEvent, { paymentId: facts.payment.id })).map((e) => e.type)).toEqual(['payment.failed']);
});

test('an audit entry or a notice added to the move stops the hot path until it writes them, and nothing is written', async () => {
  for (const change of [(move: Record<string, unknown>) => (move.audit = 'payment.completed'), (move: Record<string, unknown>) => (move.notice = 'payment_completed')]) {
    const facts = await claimedPayment('table-added');
    await expect(completeInOneStatement(db.em(), facts, tableWithComplete(change))).rejects.toThrow(UndeclaredEffectError);
    expect((await db.em().findOneOrFail(Payment, { id: facts.payment.id })).status).toBe('pending');
    expect(await kindsOf(facts.payment.id)).toEqual([]);
    expect(await db.em().count(AuditEntry, { targetId: facts.payment.id })).toBe(0);
  }
});

test('an effect taken away from the move stops the hot path too: it will not write what the table no longer declares', async () => {
  const facts = await claimedPayment('table-removed');
  await expect(completeInOneStatement(db.em(), facts, tableWithComplete((move) => delete move.event))).rejects.toThrow('does not declare an event');
  expect((await db.em().findOneOrFail(Payment, { id: facts.payment.id })).status).toBe('pending');
  // The customer's receipt is the move's declared effect too: without it the statement will not write one.
  await expect(completeInOneStatement(db.em(), facts, tableWithComplete((move) => delete move.receipt))).rejects.toThrow('does not declare a receipt');
  expect((await db.em().findOneOrFail(Payment, { id: facts.payment.id })).status).toBe('pending');
});
