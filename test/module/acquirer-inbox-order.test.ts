import { randomBytes } from 'node:crypto';
import { sqlNotificationStore, type KeptNotification, type NotificationStore } from '../../src/platform/processor/adyen/notification-store';
import { placeOf } from '../../src/platform/processor/adyen/notifications';
import { useModuleDatabase } from '../support/module-database';

/**
 * The inbox's order (src/platform/processor/adyen/notification-store.ts, claimDue): a payment's items are applied one at a
 * time, in the acquirer's order (eventDate, then the event's place), whatever order they arrived in; a failing item holds
 * back the ones after it and is never skipped; an item waiting for its predecessor holds back nothing and is woken
 * when another item of its payment is applied. Other payments' items go on meanwhile.
 */
const db = useModuleDatabase();
let store: NotificationStore;
beforeAll(() => {
  store = sqlNotificationStore((sql, params) => db.em().getConnection().execute(sql, params as unknown[]));
});

/** A payment of its own (its PSP reference orders its items) and a way to accept its items, dated `minute` minutes in. */
function payment() {
  const psp = `PSP${randomBytes(6).toString('hex').toUpperCase()}`;
  const accept = (eventCode: string, minute: number | null) => {
    const item: KeptNotification = {
      pspReference: `${eventCode.slice(0, 6)}${randomBytes(6).toString('hex').toUpperCase()}`, eventCode, success: true, merchantReference: `pay_${psp}`,
      originalReference: psp, amountValue: 1000, currency: 'USD', reason: null,
      eventDate: minute === null ? null : new Date(Date.UTC(2026, 0, 1, 0, minute)), place: placeOf(eventCode), orderKey: psp,
    };
    return store.accept(item).then(() => item.pspReference);
  };
  return { psp, accept };
}

/** What a claim returns of these payments, as "eventCode" per item (other files' items are left where they are). */
async function claim(...psps: string[]): Promise<string[]> {
  const items = await store.claimDue(500, 60_000);
  return items.filter((item) => psps.includes(item.orderKey)).map((item) => item.eventCode);
}

async function itemOf(pspReference: string) {
  const [row] = await db.em().getConnection().execute(`select "id", "order_key" from "adyen_notifications" where "psp_reference" = ?`, [pspReference]);
  return { id: String(row.id), orderKey: String(row.order_key) };
}

test("one item of a payment at a time, in the acquirer's order, not the arrival's; other payments go on", async () => {
  const a = payment();
  const b = payment();
  const reversal = await a.accept('CHARGEBACK_REVERSED', 2);
  const chargeback = await a.accept('CHARGEBACK', 1);
  await b.accept('CHARGEBACK', 5);
  expect(await claim(a.psp, b.psp)).toEqual(['CHARGEBACK', 'CHARGEBACK']);
  // The chargeback is leased, not settled: nothing more of that payment goes.
  expect(await claim(a.psp)).toEqual([]);
  await store.settle(await itemOf(chargeback), { move: 'apply' });
  expect(await claim(a.psp)).toEqual(['CHARGEBACK_REVERSED']);
  await store.settle(await itemOf(reversal), { move: 'apply' });
});

test('events of one moment go by their place in the lifecycle', async () => {
  const a = payment();
  const won = await a.accept('PREARBITRATION_WON', 3);
  const second = await a.accept('SECOND_CHARGEBACK', 3);
  expect(await claim(a.psp)).toEqual(['SECOND_CHARGEBACK']);
  await store.settle(await itemOf(second), { move: 'apply' });
  expect(await claim(a.psp)).toEqual(['PREARBITRATION_WON']);
  await store.settle(await itemOf(won), { move: 'apply' });
});

test('a failing item is never skipped: it holds back the items after it until it is applied', async () => {
  const a = payment();
  const refund = await a.accept('REFUND', 1);
  await a.accept('REFUND_FAILED', 2);
  expect(await claim(a.psp)).toEqual(['REFUND']);
  const item = await itemOf(refund);
  await store.retryLater(item.id, 'deadlock detected', 0);
  expect(await claim(a.psp)).toEqual(['REFUND']);
  await store.settle(item, { move: 'apply' });
  expect(await claim(a.psp)).toEqual(['REFUND_FAILED']);
});

test('an item waiting for its predecessor holds back nothing, and is woken when another item of its payment is applied', async () => {
  const a = payment();
  const reversal = await a.accept('REFUNDED_REVERSED', 2);
  expect(await claim(a.psp)).toEqual(['REFUNDED_REVERSED']);
  await store.settle(await itemOf(reversal), { move: 'wait', problem: 'the refund has not succeeded yet', retryInMs: 3_600_000 });
  const later = await a.accept('CHARGEBACK', 9);
  expect(await claim(a.psp)).toEqual(['CHARGEBACK']);
  await store.settle(await itemOf(later), { move: 'apply' });
  // Woken at once by the chargeback applied, not an hour later.
  expect(await claim(a.psp)).toEqual(['REFUNDED_REVERSED']);
  const listed = (await store.flagged(200)).filter((n) => n.pspReference === reversal);
  expect(listed).toEqual([expect.objectContaining({ status: 'waiting', problem: 'the refund has not succeeded yet' })]);
});

test('an item without an eventDate is placed by its arrival', async () => {
  const a = payment();
  const first = await a.accept('CHARGEBACK', null);
  await a.accept('NOTIFICATION_OF_CHARGEBACK', null);
  expect(await claim(a.psp)).toEqual(['CHARGEBACK']);
  await store.settle(await itemOf(first), { move: 'apply' });
  expect(await claim(a.psp)).toEqual(['NOTIFICATION_OF_CHARGEBACK']);
});
