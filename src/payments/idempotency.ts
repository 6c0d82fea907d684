import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import type { Shop } from '../shops/shop.entity';
import { IdempotencyRecord } from './idempotency-record.entity';
import type { Payment } from './payment.entity';
import type { CreatePaymentCommand } from './payment-rules';
import { takeSnapshot, viewOfSnapshot, type PaymentView } from './payment-snapshot';

/** Spec, Limits: the same key within 24 hours returns the same result. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export function validIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw domainError('IDEMPOTENCY_KEY_INVALID');
  return key;
}

export interface CreatePaymentOutcome {
  payment: PaymentView;
  replayed: boolean;
}

/**
 * Runs `create` at most once per (shop, key) within the window, inside one transaction.
 * A transaction-scoped advisory lock tells a concurrent twin to come back later (409) instead of
 * queueing behind it; the unique index on (shop, key) is the last word if anything slips past.
 */
export async function createOnceForKey(
  em: EntityManager,
  shop: Shop,
  key: string,
  command: CreatePaymentCommand,
  create: (tx: EntityManager) => Payment,
): Promise<CreatePaymentOutcome> {
  try {
    return await em.transactional(async (tx) => {
      await takeLockOrRefuse(tx, `${shop.id}:${key}`);
      const existing = await tx.findOne(IdempotencyRecord, { shop, key });
      if (existing && existing.createdAt.getTime() > Date.now() - IDEMPOTENCY_WINDOW_MS) {
        refuseIfDifferent(existing.request, command);
        return { payment: viewOfSnapshot(existing.response), replayed: true };
      }
      if (existing) tx.remove(existing);
      const payment = create(tx);
      tx.create(IdempotencyRecord, { shop, key, request: command, response: takeSnapshot(payment), payment });
      return { payment, replayed: false };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw domainError('IDEMPOTENCY_KEY_IN_FLIGHT');
    throw error;
  }
}

async function takeLockOrRefuse(tx: EntityManager, lockName: string): Promise<void> {
  const [row] = await tx.execute<{ locked: boolean }[]>(
    'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked',
    [lockName],
  );
  if (!row.locked) throw domainError('IDEMPOTENCY_KEY_IN_FLIGHT');
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
