import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { IdempotencyRecord } from './idempotency-record.entity';
import type { CreatePaymentCommand } from './payment-rules';
import { paymentViewOf, type PaymentView } from './payment-view';
import { insertPaymentForNewKey } from './payment-store';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/limits';

/** Spec, Limits: the same key within 24 hours returns the same result. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export function validIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw domainError('IDEMPOTENCY_KEY_INVALID');
  return key;
}

export interface CreatePaymentOutcome {
  payment: PaymentView;
  replayed: boolean;
}

/**
 * Creates the payment at most once per (shop, key) within the window. The record and the payment are
 * inserted by one statement, guarded by the unique index on (shop, key), so concurrent requests can
 * never create two payments. A key already taken replays its first answer; an expired one is released
 * and the request runs again.
 */
export async function createOnceForKey(em: EntityManager, shopId: string, key: string, command: CreatePaymentCommand, payment: PaymentView): Promise<CreatePaymentOutcome> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await insertPaymentForNewKey(em, shopId, key, payment, command)) return { payment, replayed: false };
    const existing = await em.findOne(IdempotencyRecord, { shop: shopId, key }, { disableIdentityMap: true });
    // Gone between the two statements (released as expired by a twin): the key is free again.
    if (!existing) continue;
    if (existing.createdAt.getTime() > Date.now() - IDEMPOTENCY_WINDOW_MS) {
      refuseIfDifferent(existing.request, command);
      return { payment: paymentViewOf(existing.response), replayed: true };
    }
    await em.nativeDelete(IdempotencyRecord, { id: existing.id, createdAt: existing.createdAt });
  }
  throw domainError('IDEMPOTENCY_KEY_IN_FLIGHT');
}

/** Field names as the REST contract spells them, so the message points at what to fix. */
const FIELD_NAMES: Record<keyof CreatePaymentCommand, string> = {
  amount: 'amount',
  currency: 'currency',
  returnUrl: 'return_url',
  customerEmail: 'customer_email',
  customerName: 'customer_name',
  metadata: 'metadata',
};

function refuseIfDifferent(first: CreatePaymentCommand, now: CreatePaymentCommand): void {
  const differing = (Object.keys(FIELD_NAMES) as (keyof CreatePaymentCommand)[]).filter(
    (field) => canonicalJson(first[field]) !== canonicalJson(now[field]),
  );
  if (differing.length > 0) {
    throw domainError('IDEMPOTENCY_KEY_REUSED', differing.map((field) => FIELD_NAMES[field]).join(', '));
  }
}

/** JSON with object keys sorted, so metadata {a, b} and {b, a} compare equal. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
