import type { EntityManager } from '@mikro-orm/postgresql';
import { queueRefundReviewReminders } from '../notifications/admin-notices';
import { RefundStatus } from './refund.entity';
import { REFUND_REVIEW_REMINDER_MS, REFUND_REVIEW_WINDOW_MS } from '../../shared/limits';

/** How many requests one pass reminds about; the rest wait for the next pass (or another instance). */
const BATCH = 50;

/**
 * One pass of the stale-refund sweep (run with the refund sweep, every REFUND_SWEEP_INTERVAL_MS in every instance):
 * each refund request still `requested` REFUND_REVIEW_REMINDER_MS after it was recorded is marked
 * (`review_reminded_at`, by one UPDATE … FOR UPDATE SKIP LOCKED, so two instances never take the same one), and in
 * the same transaction a mail to every finance admin is written to the mail outbox. Once per request: a marked
 * request is never taken again, and the outbox's (kind, subject) key makes each admin's mail unique besides.
 * Answers how many requests were reminded about.
 */
export async function remindStaleRefundReviews(em: EntityManager, afterMs = REFUND_REVIEW_REMINDER_MS): Promise<number> {
  return em.transactional(async (tx) => {
    const due = await tx.execute<
      { id: string; payment_id: string; amount: string | number; created_at: Date | string; shop_name: string; requested_by: string | null }[]
    >(
      `with due as (
         update "refunds" set "review_reminded_at" = now()
          where "id" in (select "id" from "refunds"
                          where "status" = ? and "review_reminded_at" is null and "created_at" < now() - ? * interval '1 millisecond'
                          order by "created_at", "id" limit ? for update skip locked)
         returning "id", "payment_id", "amount", "created_at", "requested_by_id")
       select d."id", d."payment_id", d."amount", d."created_at", sh."name" as shop_name, a."email" as requested_by
         from due d
         join "payments" p on p."id" = d."payment_id"
         join "shops" sh on sh."id" = p."shop_id"
         left join "admins" a on a."id" = d."requested_by_id"
        order by d."created_at", d."id"`,
      [RefundStatus.REQUESTED, afterMs, BATCH],
    );
    for (const refund of due) {
      const requestedAt = new Date(refund.created_at);
      await queueRefundReviewReminders(tx, {
        refundId: refund.id,
        paymentId: refund.payment_id,
        amount: Number(refund.amount),
        shopName: refund.shop_name,
        requestedAt: requestedAt.toISOString(),
        deadline: new Date(requestedAt.getTime() + REFUND_REVIEW_WINDOW_MS).toISOString(),
        requestedBy: refund.requested_by,
      });
    }
    return due.length;
  });
}
