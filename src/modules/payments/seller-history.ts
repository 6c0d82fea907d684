import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { Payment } from './payment.entity';
import { isPaymentId } from './payment-rules';
import { findPayment } from './payment.service';
import { selectFailedAt } from './payment-store';
import type { ExpiryDeps } from './payment-expiry';

/**
 * A payment of any shop of the seller, past (deleted) or present: the dashboard's history across shops
 * (docs/dashboard.md, "History across shops"). Another seller's payment is not found; a pending one past its
 * expiry is expired as it is read, as findPayment does.
 */
export async function findSellerPayment(em: EntityManager, id: string, sellerId: string, expiry?: ExpiryDeps): Promise<Payment> {
  const owned = isPaymentId(id) && (await em.count(Payment, { id, shop: { seller: sellerId } })) > 0;
  if (!owned) throw domainError('PAYMENT_NOT_FOUND');
  return findPayment(em, id, null, expiry);
}

/** When a failed payment failed: its `payment.failed` event's time (written in the move's transaction). */
export async function failedAtOf(em: EntityManager, paymentId: string): Promise<Date | null> {
  return selectFailedAt(em, paymentId);
}
