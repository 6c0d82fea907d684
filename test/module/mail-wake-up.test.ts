import { randomBytes } from 'node:crypto';
import { MAILS_COMMITTED } from '../../src/modules/notifications/mail-outbox';
import { queueCustomerMail } from '../../src/modules/notifications/mail-store';
import { countWakes } from '../support/commit-wakes';
import { useModuleDatabase } from '../support/module-database';

/**
 * A mail row wakes the mail relay when the transaction it was written into commits, so a receipt or a refund
 * notice goes out at once rather than at the next poll. A move often writes its mail inside its caller's
 * transaction, which is a savepoint: only the outermost commit counts. A listener stands in for the relay.
 */
const db = useModuleDatabase();
const wakes = countWakes(() => db.em(), MAILS_COMMITTED);

async function receiptFor(label: string) {
  const shop = await db.newShop(label);
  const paymentId = await db.completedPayment(shop, 2500);
  const mail = { kind: 'receipt' as const, subjectId: `pay-${randomBytes(4).toString('hex')}`, recipient: 'customer@example.com', shopId: shop.shop.id, sellerId: shop.seller.id, paymentId };
  return mail;
}

test('a mail written in a nested transaction wakes the relay once, when the outermost transaction commits', async () => {
  const mail = await receiptFor('mail-wake-nested');
  await db.em().transactional(async (tx) => {
    await tx.transactional((inner) => queueCustomerMail(inner, mail));
    expect(wakes.count).toBe(0);
  });
  expect(wakes.count).toBe(1);
});

test('no wake-up for a rolled back mail, nor for a mail already queued (nothing written)', async () => {
  const mail = await receiptFor('mail-wake-rollback');
  await expect(
    db.em().transactional(async (tx) => {
      await queueCustomerMail(tx, mail);
      throw new Error('changed my mind');
    }),
  ).rejects.toThrow('changed my mind');
  expect(wakes.count).toBe(0);
  await db.em().transactional((tx) => queueCustomerMail(tx, mail));
  expect(wakes.count).toBe(1);
  await db.em().transactional((tx) => queueCustomerMail(tx, mail));
  expect(wakes.count).toBe(1);
});
