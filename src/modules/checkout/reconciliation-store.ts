import type { EntityManager } from '@mikro-orm/postgresql';
import { CheckoutStage, PaymentStatus } from '../payments';
import { RefundStatus } from '../refunds';

// Reconciliation's SQL: the lease a sweep takes on stuck rows, and the flag for admins when the acquirer never answers.

/** A row leased for one look-up, with the time its age counts from (past RECONCILE_GIVE_UP_MS of it, admins are asked). */
export interface Leased {
  id: string;
  since: Date;
}

/** How a sweep leases: for how long, rows stuck for how long, and at most how many. */
export interface LeaseTerms {
  leaseSeconds: number;
  stuckSeconds: number;
  batch: number;
}

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
 * Leases up to `batch` refunds still processing, claimed more than `stuckSeconds` ago, as leaseStuckPayments does. `since`
 * is the approval: a retry by the refund jobs renews its claim, not its age.
 */
export async function leaseStuckRefunds(em: EntityManager, terms: LeaseTerms): Promise<Leased[]> {
  const rows = await em.execute<{ id: string; reviewed_at: Date }[]>(
    `update "refunds" set "reconcile_leased_until" = now() + make_interval(secs => ?)
      where "id" in (select "id" from "refunds"
        where "status" = ? and "claimed_at" < now() - make_interval(secs => ?)
          and ("reconcile_leased_until" is null or "reconcile_leased_until" <= now())
        order by "reconcile_leased_until" nulls first, "claimed_at" limit ? for update skip locked)
      returning "id", "reviewed_at"`,
    [terms.leaseSeconds, RefundStatus.PROCESSING, terms.stuckSeconds, terms.batch],
  );
  return rows.map((r) => ({ id: r.id, since: new Date(r.reviewed_at) }));
}

/**
 * Flags a payment still pending, or a refund still processing, for admins (`needs_attention_at`). True only for the
 * call that set it: a row already flagged, or settled meanwhile, is left alone.
 */
export async function flagNeedsAttention(em: EntityManager, table: 'payments' | 'refunds', id: string): Promise<boolean> {
  const flagged = await em.execute<{ id: string }[]>(
    `update "${table}" set "needs_attention_at" = now() where "id" = ? and "status" = ? and "needs_attention_at" is null returning "id"`,
    [id, table === 'payments' ? PaymentStatus.PENDING : RefundStatus.PROCESSING],
  );
  return flagged.length > 0;
}
