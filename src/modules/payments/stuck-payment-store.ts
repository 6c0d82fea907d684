import type { EntityManager } from '@mikro-orm/postgresql';
import type { Leased, LeaseTerms } from '../../shared/reconcile-lease';
import { CheckoutStage, PaymentStatus } from './payment-status';

// Payments whose acquirer outcome is unknown: the lease a reconciliation sweep takes on them, and the flag for admins
// when the acquirer never answers (src/modules/checkout/reconciliation-jobs.ts has the rules).

/**
 * Leases up to `batch` payments in `processing` for longer than `stuckSeconds` and not leased now: one UPDATE … FOR UPDATE
 * SKIP LOCKED, rows never asked about first, then the oldest. `since` is when processing began.
 */
export async function leaseStuckPayments(em: EntityManager, terms: LeaseTerms): Promise<Leased[]> {
  const rows = await em.execute<{ id: string; processing_since: Date }[]>(
    `update "payments" set "reconcile_leased_until" = now() + make_interval(secs => ?)
      where "id" in (select "id" from "payments"
        where "status" = ? and "checkout_stage" = ? and "processing_since" < now() - make_interval(secs => ?)
          and ("reconcile_leased_until" is null or "reconcile_leased_until" <= now())
        order by "reconcile_leased_until" nulls first, "processing_since" limit ? for update skip locked)
      returning "id", "processing_since"`,
    [terms.leaseSeconds, PaymentStatus.PENDING, CheckoutStage.PROCESSING, terms.stuckSeconds, terms.batch],
  );
  return rows.map((r) => ({ id: r.id, since: new Date(r.processing_since) }));
}

/**
 * Flags a payment still pending for admins (`needs_attention_at`). True only for the call that set it: a payment
 * already flagged, or settled meanwhile, is left alone.
 */
export async function flagPaymentNeedingAttention(em: EntityManager, id: string): Promise<boolean> {
  const flagged = await em.execute<{ id: string }[]>(
    `update "payments" set "needs_attention_at" = now() where "id" = ? and "status" = ? and "needs_attention_at" is null returning "id"`,
    [id, PaymentStatus.PENDING],
  );
  return flagged.length > 0;
}
