import type { PaymentObject } from './payment.object';
import { newPaymentId, type CreatePaymentCommand } from './payment-rules';
import { PaymentStatus } from './payment-status';

/**
 * The one read shape of a payment: the fields of its GraphQL object type (payment.object.ts) as plain data. The
 * create answer, a hot-path SELECT, an idempotent replay, an event's payload, the checkout's read and the CSV export
 * all use it (a row becomes one in payment-store.ts, paymentViewOfRow), so what a seller sees cannot differ by path;
 * the entity fits it too. The checkout and the export add their own fields to it. Not the REST body: that is
 * src/api/rest/rest-payment.ts, from what GraphQL answered.
 */
export type PaymentView = Pick<PaymentObject, keyof PaymentObject>;

/** A view as a JSON column keeps it (an idempotency record's answer): the same fields, times as ISO 8601 text. */
export type StoredPaymentView = Omit<PaymentView, 'createdAt' | 'completedAt'> & { createdAt: string; completedAt: string | null };

/** A new pending payment as it will be stored and answered: id and creation time are chosen here. */
export function newPaymentView(command: CreatePaymentCommand): PaymentView {
  const { amount, currency, customerEmail, customerName, metadata } = command;
  return { id: newPaymentId(), amount, currency, status: PaymentStatus.PENDING, customerEmail, customerName, metadata, createdAt: new Date(), completedAt: null };
}

/** The view a JSON column gave back, its times parsed. */
export function paymentViewOf(stored: StoredPaymentView): PaymentView {
  return { ...stored, createdAt: new Date(stored.createdAt), completedAt: stored.completedAt === null ? null : new Date(stored.completedAt) };
}
