import type { EntityManager } from '@mikro-orm/postgresql';
import type { Leased, LeaseTerms } from '../../shared/reconcile-lease';
import { RefundStatus } from './refund.entity';

// Refunds whose acquirer outcome is unknown: the lease a reconciliation sweep takes on them, and the flag for admins
// when the acquirer never answers (src/modules/checkout/reconciliation-jobs.ts has the rules).

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
 * Flags a refund still processing for admins (`needs_attention_at`). True only for the call that set it: a refund
 * already flagged, or settled meanwhile, is left alone.
 */
export async function flagRefundNeedingAttention(em: EntityManager, id: string): Promise<boolean> {
  const flagged = await em.execute<{ id: string }[]>(
    `update "refunds" set "needs_attention_at" = now() where "id" = ? and "status" = ? and "needs_attention_at" is null returning "id"`,
    [id, RefundStatus.PROCESSING],
  );
  return flagged.length > 0;
}
