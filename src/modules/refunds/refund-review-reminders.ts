import type { EntityManager } from '@mikro-orm/postgresql';
import { queueRefundReviewReminders } from '../notifications';
import { markReviewRemindersDue } from './refund-store';
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
    const due = await markReviewRemindersDue(tx, afterMs, BATCH);
    for (const refund of due) {
      const requestedAt = refund.createdAt;
      await queueRefundReviewReminders(tx, {
        refundId: refund.id,
        paymentId: refund.paymentId,
        amount: refund.amount,
        shopName: refund.shopName,
        requestedAt: requestedAt.toISOString(),
        deadline: new Date(requestedAt.getTime() + REFUND_REVIEW_WINDOW_MS).toISOString(),
        requestedBy: refund.requestedBy,
      });
    }
    return due.length;
  });
}
