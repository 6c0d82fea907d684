import type { EntityManager } from '@mikro-orm/postgresql';
import { prefixedId } from '../shared/random-id';

/** A chargeback the acquirer notified, as recorded (docs/acquirers.md). */
export interface ChargebackRecord {
  amount: number;
  currency: string;
  reason: string | null;
  acquirerReference: string;
  createdAt: Date;
}

/** Records the payment's chargeback unless one is recorded already (one per payment: the unique index). */
export async function recordChargeback(
  tx: EntityManager,
  chargeback: { paymentId: string; acquirerReference: string; amount: number; currency: string; reason: string | null },
): Promise<boolean> {
  const inserted = await tx.execute<{ id: string }[]>(
    `insert into "chargebacks" ("id", "payment_id", "psp_reference", "amount", "currency", "reason") values (?, ?, ?, ?, ?, ?)
      on conflict ("payment_id") do nothing returning "id"`,
    [prefixedId('cb', 20), chargeback.paymentId, chargeback.acquirerReference, chargeback.amount, chargeback.currency, chargeback.reason],
  );
  return inserted.length === 1;
}

/** The chargeback recorded against a payment, if any. */
export async function chargebackOf(em: EntityManager, paymentId: string): Promise<ChargebackRecord | null> {
  const [row] = await em.execute<{ amount: string; currency: string; reason: string | null; psp_reference: string; created_at: Date }[]>(
    `select "amount", "currency", "reason", "psp_reference", "created_at" from "chargebacks" where "payment_id" = ?`,
    [paymentId],
  );
  if (!row) return null;
  return { amount: Number(row.amount), currency: row.currency, reason: row.reason, acquirerReference: row.psp_reference, createdAt: new Date(row.created_at) };
}
