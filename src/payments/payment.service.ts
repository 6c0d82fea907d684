import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { exceedsPaymentMaximum } from '../shops/account-status';
import type { Shop } from '../shops/shop.entity';
import { createOnceForKey, validIdempotencyKey, type CreatePaymentOutcome } from './idempotency';
import { Payment } from './payment.entity';
import { newPaymentSnapshot, fieldsOfSnapshot, type PaymentFields } from './payment-snapshot';
import { insertPayment, selectShopPayment } from './payment-store';
import { isPaymentId, validateCreatePayment, type CreatePaymentRequest } from './payment-rules';
import type { PaymentStatus } from './payment-status';
import { pageOf, validPageRequest, windowOf, type Page } from '../shared/pagination';

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
  const snapshot = newPaymentSnapshot(command);
  if (idempotencyKey === undefined || idempotencyKey === null) {
    await insertPayment(em, shopId, snapshot, command);
    return { payment: fieldsOfSnapshot(snapshot), replayed: false };
  }
  return createOnceForKey(em, shopId, validIdempotencyKey(idempotencyKey), command, snapshot);
}

/** A seller's own payment (the REST retrieve path), as a plain view of the `Payment` fields. */
export async function findShopPayment(em: EntityManager, id: string, shopId: string): Promise<PaymentFields> {
  const payment = isPaymentId(id) ? await selectShopPayment(em, id, shopId) : null;
  if (!payment) throw domainError('PAYMENT_NOT_FOUND');
  return payment;
}

/** The payment with this id, if `shop` owns it (or any payment when `shop` is null: admins). */
export async function findPayment(em: EntityManager, id: string, shop: Shop | null): Promise<Payment> {
  const payment = isPaymentId(id) ? await em.findOne(Payment, shop ? { id, shop } : { id }) : null;
  if (!payment) throw domainError('PAYMENT_NOT_FOUND');
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
