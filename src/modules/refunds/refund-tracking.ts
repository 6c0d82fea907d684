import type { EntityManager } from '@mikro-orm/postgresql';
import { isTrackingTokenShape, mailableAddress, REFUND_ARRIVES_WITHIN } from '../notifications';
import { CHARGEBACK_STANDS_REASON } from './refund.service';
import { RefundStatus } from './refund.entity';
import { trackingTokenHash } from './refund-tracking-token';
import { trackedRefundByTokenHash, type TrackedRefundRow } from './refund-store';

/**
 * The customer's refund tracking page (`/refunds/<token>`, docs/integrate.md): the link is mailed to the customer
 * with the refund's mails; 256 random bits, base64url, and only its SHA-256 is kept on the refund
 * (`tracking_token_hash`). Anyone holding the link sees the refund's stages, its amount and how to reach the shop,
 * and nothing else.
 */

/** How long a link works once the refund is over (rejected, refunded, failed or reversed): counted from its last stage. */
export const REFUND_TRACKING_TTL_DAYS = 180;
const TTL_MS = REFUND_TRACKING_TTL_DAYS * 86_400_000;

/** What the customer is promised at each step (the review promise of refund.service.ts; the acquirer's usual time). */
export const REFUND_REVIEWED_WITHIN = '24 hours';
export const REFUND_SENT_WITHIN = '2 to 3 business days';

/** What the page shows of a refund: its stages' times, its amount, the shop's name and support address. Nothing else. */
export interface TrackedRefund {
  status: RefundStatus;
  amount: number;
  currency: string;
  shopName: string;
  supportEmail: string | null;
  processorReference: string | null;
  requestedAt: Date;
  reviewedAt: Date | null;
  sentAt: Date | null;
  refundedAt: Date | null;
  failedAt: Date | null;
  reversedAt: Date | null;
  /** Whether the refund reached the card's bank (a failure decided on our side never did). */
  reachedBank: boolean;
  /** When the link stops working; null while the refund is still under way. */
  expiresAt: Date | null;
}

/** Failures decided before anything was sent to the acquirer (refund.service.ts). */
const REFUSED_BEFORE_SENDING = [CHARGEBACK_STANDS_REASON, 'no_authorization_reference'];

/**
 * The refund a link token names, or null when the token is unknown or its link has expired: one statement, so a
 * wrong token and an expired one cost the same and answer the same.
 */
export async function findTrackedRefund(em: EntityManager, token: string, now = new Date()): Promise<TrackedRefund | null> {
  if (!isTrackingTokenShape(token)) return null;
  const row = await trackedRefundByTokenHash(em, trackingTokenHash(token), new Date(now.getTime() - TTL_MS));
  return row ? trackedRefundOf(row) : null;
}

function trackedRefundOf(row: TrackedRefundRow): TrackedRefund {
  return {
    status: row.status,
    amount: row.amount,
    currency: row.currency.toUpperCase(),
    shopName: row.shopName,
    // As receipts name it: the shop's support address, the seller's account address until one is set.
    supportEmail: [row.supportEmail, row.sellerEmail].find((address) => mailableAddress(address)) ?? null,
    processorReference: row.processorReference,
    requestedAt: row.createdAt,
    reviewedAt: row.reviewedAt,
    sentAt: row.claimedAt,
    refundedAt: row.refundedAt,
    failedAt: row.failedAt,
    reversedAt: row.reversedAt,
    reachedBank: row.claimedAt !== null && !REFUSED_BEFORE_SENDING.includes(row.failureReason ?? ''),
    expiresAt: row.overAt ? new Date(row.overAt.getTime() + TTL_MS) : null,
  };
}

/** One stage of the page's list: reached (with its time when known) or still to come. */
export interface TrackingStage {
  label: string;
  at: Date | null;
  reached: boolean;
  /** A line under the label (the acquirer's reference). */
  detail?: string;
}

const S = RefundStatus;
const SENT_OR_LATER: RefundStatus[] = [S.PROCESSING, S.REFUNDED, S.REVERSED];

/** The stages as the customer follows them, in order: the way a refund went, then the ones still to come. */
export function trackingStages(refund: TrackedRefund): TrackingStage[] {
  const { status } = refund;
  const stages: TrackingStage[] = [{ label: 'Refund requested', at: refund.requestedAt, reached: true }];
  if (status === S.REJECTED) return [...stages, { label: 'Refund not approved', at: refund.reviewedAt, reached: true }];
  stages.push({ label: 'Approved', at: refund.reviewedAt, reached: status !== S.REQUESTED });
  const sent = SENT_OR_LATER.includes(status) || (status === S.FAILED && refund.reachedBank);
  if (status !== S.FAILED || sent) {
    const reference = sent && refund.processorReference ? `Bank reference: ${refund.processorReference}` : undefined;
    stages.push({ label: "Sent to your card's bank", at: sent ? refund.sentAt : null, reached: sent, ...(reference ? { detail: reference } : {}) });
  }
  if (status === S.FAILED) return [...stages, { label: 'Refund failed', at: refund.failedAt, reached: true }];
  stages.push({ label: 'Refunded', at: refund.refundedAt, reached: status === S.REFUNDED || status === S.REVERSED });
  if (status === S.REVERSED) stages.push({ label: 'Sent back by your bank', at: refund.reversedAt, reached: true });
  return stages;
}

/** What the customer can expect now, in a sentence or two. */
export function whatHappensNext(refund: TrackedRefund): string[] {
  const shop = refund.shopName;
  switch (refund.status) {
    case S.REQUESTED:
      return [`Our payments team reviews every refund request, usually within ${REFUND_REVIEWED_WITHIN}.`];
    case S.APPROVED:
    case S.PROCESSING:
      return [`The refund is on its way to your card's bank, which usually takes ${REFUND_SENT_WITHIN}.`];
    case S.REFUNDED:
      return [`Your card's bank has the refund. It usually shows on your statement within ${REFUND_ARRIVES_WITHIN}, depending on your bank; ask your bank if it has not arrived by then.`];
    case S.REJECTED:
      return [`The refund was not approved, so nothing changes on your card. ${shop} can tell you why.`];
    case S.FAILED:
      return [`The refund did not go through, so no money went back to your card. Contact ${shop}: they can arrange the refund again or another way.`];
    case S.REVERSED:
      return [`Your card's bank sent the refund back (this happens, for example, when the card was closed), so the money is with ${shop} again. Contact them to get it back another way.`];
  }
}
