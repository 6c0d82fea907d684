import type { EntityManager } from '@mikro-orm/postgresql';
import { isLanguage, type Language } from '../../shared/customer-language/languages';
import { translator, type Translator } from '../../shared/customer-language/messages';
import { isTrackingTokenShape, mailableAddress, REFUND_ARRIVES_WITHIN_BUSINESS_DAYS, REFUND_REVIEWED_WITHIN_HOURS } from '../notifications';
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

/** What the customer is promised while the refund travels to the card's bank (the acquirer's usual time). */
const REFUND_SENT_WITHIN_BUSINESS_DAYS = { min: 2, max: 3 };
const ENGLISH = translator('en');

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
  /** The payment's language, the page's; null (or absent) when none was recorded. */
  language?: Language | null;
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
    language: isLanguage(row.language) ? row.language : null,
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
export function trackingStages(refund: TrackedRefund, { t }: Translator = ENGLISH): TrackingStage[] {
  const { status } = refund;
  const stages: TrackingStage[] = [{ label: t('refund.stage.requested'), at: refund.requestedAt, reached: true }];
  if (status === S.REJECTED) return [...stages, { label: t('refund.stage.rejected'), at: refund.reviewedAt, reached: true }];
  stages.push({ label: t('refund.stage.approved'), at: refund.reviewedAt, reached: status !== S.REQUESTED });
  const sent = SENT_OR_LATER.includes(status) || (status === S.FAILED && refund.reachedBank);
  if (status !== S.FAILED || sent) {
    const reference = sent && refund.processorReference ? t('refund.stage.bankReference', { reference: refund.processorReference }) : undefined;
    stages.push({ label: t('refund.stage.sent'), at: sent ? refund.sentAt : null, reached: sent, ...(reference ? { detail: reference } : {}) });
  }
  if (status === S.FAILED) return [...stages, { label: t('refund.stage.failed'), at: refund.failedAt, reached: true }];
  stages.push({ label: t('refund.stage.refunded'), at: refund.refundedAt, reached: status === S.REFUNDED || status === S.REVERSED });
  if (status === S.REVERSED) stages.push({ label: t('refund.stage.reversed'), at: refund.reversedAt, reached: true });
  return stages;
}

/** What the customer can expect now, in a sentence or two. */
export function whatHappensNext(refund: TrackedRefund, { t }: Translator = ENGLISH): string[] {
  const shop = refund.shopName;
  switch (refund.status) {
    case S.REQUESTED:
      return [t('refund.says.requested', { hours: REFUND_REVIEWED_WITHIN_HOURS })];
    case S.APPROVED:
    case S.PROCESSING:
      return [t('refund.says.sending', REFUND_SENT_WITHIN_BUSINESS_DAYS)];
    case S.REFUNDED:
      return [t('refund.says.refunded', REFUND_ARRIVES_WITHIN_BUSINESS_DAYS)];
    case S.REJECTED:
      return [t('refund.says.rejected', { shop })];
    case S.FAILED:
      return [t('refund.says.failed', { shop })];
    case S.REVERSED:
      return [t('refund.says.reversed', { shop })];
  }
}
