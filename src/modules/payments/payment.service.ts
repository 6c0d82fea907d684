import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { exceedsPaymentMaximum, type Shop } from '../identity';
import { createOnceForKey, validIdempotencyKey, type CreatePaymentOutcome } from './idempotency';
import { Payment } from './payment.entity';
import { newPaymentView, type PaymentView } from './payment-view';
import { insertPayment, selectShopPayment } from './payment-store';
import { isPaymentId, validateCreatePayment, type CreatePaymentRequest } from './payment-rules';
import { PaymentStatus } from './payment-status';
import { expirePayment, expiryDeadline, isDueToExpire, type ExpiryDeps } from './payment-expiry';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';

/** Creating and reading payments: the one path shared by GraphQL, the REST facade and the CLI. */
export async function createPayment(
  em: EntityManager,
  shopId: string,
  request: CreatePaymentRequest,
  idempotencyKey?: string | null,
  maximum: number | null = null,
): Promise<CreatePaymentOutcome> {
  const command = validateCreatePayment(request);
  // The seller's maximum comes with its cached credential: no database work on the hot path.
  if (exceedsPaymentMaximum(command.amount, maximum)) throw domainError('AMOUNT_ABOVE_ACCOUNT_MAXIMUM', maximum!);
  const payment = newPaymentView(command);
  if (idempotencyKey === undefined || idempotencyKey === null) {
    await insertPayment(em, shopId, payment, command);
    return { payment, replayed: false };
  }
  return createOnceForKey(em, shopId, validIdempotencyKey(idempotencyKey), command, payment);
}

/** A seller's own payment (the REST retrieve path), as a plain view of the `Payment` fields. */
export async function findShopPayment(em: EntityManager, id: string, shopId: string, expiry?: ExpiryDeps): Promise<PaymentView> {
  const payment = isPaymentId(id) ? await selectShopPayment(em, id, shopId) : null;
  if (!payment) throw domainError('PAYMENT_NOT_FOUND');
  // A pending payment past its expiry is expired as it is read (a no-op while its card is at the acquirer).
  if (expiry && payment.status === PaymentStatus.PENDING && payment.createdAt <= expiryDeadline(expiry.expiresAfterMs)) {
    // Read again whoever moved it: another instance's sweep may have expired it a moment ago.
    await expirePayment(em, expiry, id);
    return (await selectShopPayment(em, id, shopId))!;
  }
  return payment;
}

/** The payment with this id, if `shop` owns it (or any payment when `shop` is null: admins); expired first when due. */
export async function findPayment(em: EntityManager, id: string, shop: Shop | null, expiry?: ExpiryDeps): Promise<Payment> {
  const payment = isPaymentId(id) ? await em.findOne(Payment, shop ? { id, shop } : { id }) : null;
  if (!payment) throw domainError('PAYMENT_NOT_FOUND');
  if (expiry && isDueToExpire(payment, expiry.expiresAfterMs)) {
    await expirePayment(em, expiry, id);
    return em.findOneOrFail(Payment, { id }, { refresh: true });
  }
  return payment;
}

export async function listPayments(
  em: EntityManager,
  shop: Shop,
  page: number | null | undefined,
  limit: number | null | undefined,
  status: PaymentStatus | null | undefined,
): Promise<Page<Payment>> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<Payment> = status ? { shop, status } : { shop };
  const [items, total] = await em.findAndCount(Payment, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    ...windowOf(request),
  });
  return pageOf(request, items, total);
}
