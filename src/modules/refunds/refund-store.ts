import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf, openStatesOf, sqlList } from '../../platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { RefundStatus } from './refund.entity';

// The refunds' own SQL: the sweeps' looks for work (live tests awaiting their refund, requests awaiting review),
// a refund's tracking-link hash, and the tracking page's one read.

const COMPLETED = enumOf(PAYMENT_LIFECYCLE.states).COMPLETED;

/**
 * Completed live tests with no refund yet, oldest first: their completion's hand-off to the refund jobs was lost
 * (a crash right after the commit, an instance stopping). The sweep approves their refunds.
 */
export async function liveTestsAwaitingRefund(em: EntityManager, limit = 50): Promise<string[]> {
  // The status is written into the SQL, as in the partial index payments_live_tests_completed_idx, so the planner can use it.
  const rows = await em.execute<{ id: string }[]>(
    `select p."id" from "payments" p
      where p."test" and p."status" = ${sqlList([COMPLETED])}
        and not exists (select 1 from "refunds" r where r."payment_id" = p."id")
      order by p."completed_at", p."id" limit ?`,
    [limit],
  );
  return rows.map((row) => row.id);
}

/** A refund request whose review reminder is due, with what the reminder tells of it. */
export interface RefundAwaitingReview {
  id: string;
  paymentId: string;
  amount: number;
  /** When it was recorded. */
  createdAt: Date;
  shopName: string;
  /** The address of the admin who recorded it; null when the seller asked from the dashboard. */
  requestedBy: string | null;
}

/**
 * Marks up to `limit` requests still `requested` more than `afterMs` after they were recorded and not reminded of
 * yet (`review_reminded_at`), oldest first, and answers them: one UPDATE … FOR UPDATE SKIP LOCKED, so two instances
 * never take the same one, and a marked request is never taken again.
 */
export async function markReviewRemindersDue(tx: EntityManager, afterMs: number, limit: number): Promise<RefundAwaitingReview[]> {
  const rows = await tx.execute<
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
    [RefundStatus.REQUESTED, afterMs, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    paymentId: row.payment_id,
    amount: Number(row.amount),
    createdAt: new Date(row.created_at),
    shopName: row.shop_name,
    requestedBy: row.requested_by,
  }));
}

/** Keeps the hash of a refund's (new) tracking-link token, in place of any before it. */
export async function setTrackingTokenHash(tx: EntityManager, refundId: string, hash: string): Promise<void> {
  await tx.execute(`update "refunds" set "tracking_token_hash" = ? where "id" = ?`, [hash, refundId]);
}

/** A refund as its tracking page reads it: its stages' times, its payment's currency, its shop and how to reach it. */
export interface TrackedRefundRow {
  status: RefundStatus;
  amount: number;
  currency: string;
  createdAt: Date;
  reviewedAt: Date | null;
  /** When it was sent to the acquirer. */
  claimedAt: Date | null;
  refundedAt: Date | null;
  failedAt: Date | null;
  reversedAt: Date | null;
  failureReason: string | null;
  processorReference: string | null;
  shopName: string;
  sellerEmail: string;
  supportEmail: string | null;
  /** The payment's customer language (payments.language). */
  language: string | null;
  /** When it reached its last stage; null while it is open. */
  overAt: Date | null;
}

/** When a refund that is over reached its last stage; null while it is open. */
const OVER_AT = `case when r."status" not in (${sqlList(openStatesOf(REFUND_LIFECYCLE))})
  then greatest(r."created_at", r."reviewed_at", r."refunded_at", r."failed_at", r."reversed_at") end`;

/**
 * The refund whose tracking-token hash is `tokenHash`, unless it was over by `overBefore` (its link expired): one
 * statement, so a wrong token and an expired one cost the same and answer the same. Null for either.
 */
export async function trackedRefundByTokenHash(em: EntityManager, tokenHash: string, overBefore: Date): Promise<TrackedRefundRow | null> {
  const [row] = await em.execute<
    {
      status: RefundStatus;
      amount: string | number;
      currency: string;
      created_at: Date;
      reviewed_at: Date | null;
      claimed_at: Date | null;
      refunded_at: Date | null;
      failed_at: Date | null;
      reversed_at: Date | null;
      failure_reason: string | null;
      processor_reference: string | null;
      shop_name: string;
      seller_email: string;
      support_email: string | null;
      language: string | null;
      over_at: Date | null;
    }[]
  >(
    `select r."status", r."amount", p."currency", r."created_at", r."reviewed_at", r."claimed_at", r."refunded_at", r."failed_at",
            r."reversed_at", r."failure_reason", r."processor_reference",
            sh."name" as shop_name, se."email" as seller_email, m."support_email", p."language", ${OVER_AT} as over_at
       from "refunds" r
       join "payments" p on p."id" = r."payment_id"
       join "shops" sh on sh."id" = p."shop_id"
       join "sellers" se on se."id" = sh."seller_id"
       left join "seller_mail_settings" m on m."seller_id" = se."id"
      where r."tracking_token_hash" = ? and coalesce(${OVER_AT} > ?, true)`,
    [tokenHash, overBefore],
  );
  if (!row) return null;
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    createdAt: new Date(row.created_at),
    reviewedAt: date(row.reviewed_at),
    claimedAt: date(row.claimed_at),
    refundedAt: date(row.refunded_at),
    failedAt: date(row.failed_at),
    reversedAt: date(row.reversed_at),
    failureReason: row.failure_reason,
    processorReference: row.processor_reference,
    shopName: row.shop_name,
    sellerEmail: row.seller_email,
    supportEmail: row.support_email,
    language: row.language,
    overAt: date(row.over_at),
  };
}

/** The refunds' counts behind the /metrics gauges. */
export interface RefundQueueDepth {
  /** Approved or processing: the acquirer's part still to come. */
  approved: number;
  /** Processing with an outcome that stayed unknown (`needs_attention_at`): an admin must settle them. */
  needingAttention: number;
  /** Requested 20 hours ago or more and still undecided (a decision is promised within 24). */
  nearReviewDeadline: number;
}

/** The refunds' counts for a /metrics scrape, in one statement. */
export async function refundQueueDepth(em: EntityManager): Promise<RefundQueueDepth> {
  const [row] = await em.execute<{ approved: string; needing_attention: string; near_review_deadline: string }[]>(
    `select
       (select count(*) from "refunds" where "status" in (?, ?)) as approved,
       (select count(*) from "refunds" where "needs_attention_at" is not null and "status" = ?) as needing_attention,
       (select count(*) from "refunds" where "status" = ? and "created_at" <= now() - interval '20 hours') as near_review_deadline`,
    [RefundStatus.APPROVED, RefundStatus.PROCESSING, RefundStatus.PROCESSING, RefundStatus.REQUESTED],
  );
  return { approved: Number(row.approved), needingAttention: Number(row.needing_attention), nearReviewDeadline: Number(row.near_review_deadline) };
}

/**
 * What each seller's approved refunds hold (docs/dashboard.md, "Balance"): refunds approved or being sent, not yet carried
 * out nor failed. That money is promised to the cardholder: withdrawals cannot take it meanwhile.
 */
export async function selectRefundsHeld(em: EntityManager, sellerIds: readonly string[]): Promise<Map<string, bigint>> {
  const rows = await em.execute<{ seller_id: string; held: string }[]>(
    `select s."seller_id", coalesce(sum(r."amount"), 0) as held from "refunds" r
       join "payments" p on p."id" = r."payment_id" join "shops" s on s."id" = p."shop_id"
      where s."seller_id" = any(array[?]::text[]) and r."status" in (${sqlList([RefundStatus.APPROVED, RefundStatus.PROCESSING])}) group by s."seller_id"`,
    [[...sellerIds]],
  );
  const held = new Map(sellerIds.map((id) => [id, 0n]));
  for (const row of rows) held.set(row.seller_id, BigInt(row.held));
  return held;
}
