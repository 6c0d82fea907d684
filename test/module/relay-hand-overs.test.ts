import { MAIL_STATEMENTS, queueCustomerMail } from '../../src/modules/notifications/mail-store';
import { DELIVERY_STATEMENTS } from '../../src/modules/webhooks/outbox-store';
import type { RelayStatements } from '../../src/platform/outbox/attempt-relay';
import { useModuleDatabase } from '../support/module-database';

/**
 * What a relay reads of a row it handed to the queue before (src/platform/outbox/attempt-relay.ts): left out while
 * its lease runs, due again after it with the time of that hand-over, so a job stuck in bull's active list can go
 * on again under an id of its own. Both outboxes drained through the queue, webhook deliveries and mails.
 */
const db = useModuleDatabase();
const LEASE_MS = 5000;
type Statements = RelayStatements<ReturnType<typeof db.em>>;

/** A delivery due for its first attempt (the test removes it, so no later suite's relay takes it). */
async function deliveryRow(): Promise<string> {
  const shop = await db.newShop('relay-delivery', { webhookUrl: 'https://hooks.example/in' });
  const paymentId = await db.completedPayment(shop, 1500);
  const [row] = await db.em().execute<{ id: string }[]>('select "id" from "webhook_deliveries" where "payment_id" = ?', [paymentId]);
  return row.id;
}

/** A receipt due for its first attempt (removed likewise). */
async function mailRow(): Promise<string> {
  const shop = await db.newShop('relay-mail');
  const paymentId = await db.completedPayment(shop, 1500);
  const recipient = `relay-${Date.now()}@example.com`;
  await db.em().transactional((tx) => queueCustomerMail(tx, { kind: 'receipt', subjectId: paymentId, recipient, shopId: shop.shop.id, sellerId: shop.seller.id, paymentId }));
  const [row] = await db.em().execute<{ id: string }[]>('select "id" from "mail_outbox" where "recipient" = ?', [recipient]);
  return row.id;
}

test.each<[string, Statements, () => Promise<string>]>([
  ['webhook_deliveries', DELIVERY_STATEMENTS, deliveryRow],
  ['mail_outbox', MAIL_STATEMENTS, mailRow],
])('%s: a row handed over is left out for its lease, then due again with when it was handed over', async (table, statements, newRow) => {
  const id = await newRow();
  try {
    const due = async () => (await statements.due(db.em(), 10_000, LEASE_MS)).find((row) => row.id === id);
    const handOver = (attempt: number, at: Date) => db.em().execute(`update "${table}" set "enqueued_attempt" = ?, "enqueued_at" = ? where "id" = ?`, [attempt, at, id]);
    expect(await due()).toMatchObject({ attemptCount: 0, handedOverAt: null });

    await handOver(0, new Date());
    expect(await due()).toBeUndefined();

    const aMinuteAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await handOver(0, aMinuteAgo);
    expect(await due()).toMatchObject({ attemptCount: 0, handedOverAt: aMinuteAgo.getTime() });

    // Handed over for an earlier attempt: this one was never put on the queue.
    await handOver(-1, new Date());
    expect(await due()).toMatchObject({ attemptCount: 0, handedOverAt: null });
  } finally {
    await db.em().execute(`delete from "${table}" where "id" = ?`, [id]);
  }
});
