import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { DISPUTE_LIFECYCLE } from '../disputes/dispute.lifecycle';
import { newChangeId } from './mail-outbox';
import { queueCustomerMail, queueSellerNotice, refundRequestMailed, sellerAddressVerified } from './mail-store';
import { hostOf } from './mail-text';

/**
 * What each feature writes to the mail outbox, in its own transaction (the caller's `tx`), at the moment the thing
 * happens: the refund notice to the customer, and the seller notifications. Each is one INSERT, unique per kind and
 * subject, so a move that lands once writes its mail once.
 */

const DISPUTE = enumOf(DISPUTE_LIFECYCLE.states);
/** The dispute states that decide it, which the seller is told of (a chargeback's other steps are in the dashboard). */
const DECIDING: readonly string[] = [DISPUTE.WON, DISPUTE.LOST, DISPUTE.CLOSED];

interface RefundFacts {
  id: string;
  amount: number;
  payment: { id: string; customerEmail?: string | null; shop?: { id: string; seller?: { id: string } } };
}

/**
 * The customer is told the shop asked for a refund, with the link to follow it (`trackingToken`, kept in the mail's
 * params like the rest of what the mail says), when the payment has `customer_email`: once per payment, however
 * many requests follow (a flood of one-cent requests must not become a flood of mails to someone else's address);
 * each refund carried out still sends its notice. A seller who has not verified their own address sends customers
 * nothing but the receipt: anyone can sign up and type a victim's address as `customer_email`.
 */
export async function queueRefundRequestedMail(tx: EntityManager, refund: RefundFacts, trackingToken: string): Promise<boolean> {
  const { payment } = refund;
  if (!payment.customerEmail || !payment.shop?.seller) return false;
  if (!(await sellerAddressVerified(tx, payment.shop.seller.id)) || (await refundRequestMailed(tx, payment.id))) return false;
  return queueCustomerMail(tx, { kind: 'refund-requested', subjectId: refund.id, recipient: payment.customerEmail, shopId: payment.shop.id, sellerId: payment.shop.seller.id, paymentId: payment.id, params: { trackingToken } });
}

/**
 * The customer's refund notice, when the payment has `customer_email` (the mail the refund table's `succeed` and
 * `succeedTest` moves declare), with the tracking link's token refunds answer (the request mail's, or a new one):
 * asked only when the notice is written.
 */
export async function queueRefundNotice(tx: EntityManager, refund: RefundFacts, kind: 'refund-notice', trackingTokenOf: () => Promise<string>): Promise<boolean> {
  const { payment } = refund;
  if (!payment.customerEmail || !payment.shop?.seller || !(await sellerAddressVerified(tx, payment.shop.seller.id))) return false;
  const trackingToken = await trackingTokenOf();
  return queueCustomerMail(tx, { kind, subjectId: refund.id, recipient: payment.customerEmail, shopId: payment.shop.id, sellerId: payment.shop.seller.id, paymentId: payment.id, params: { trackingToken } });
}

/** The seller is told a refund request was approved, rejected (with the reason) or failed at the card (with the reason). */
export function noticeRefund(tx: EntityManager, refund: RefundFacts, kind: 'refund-approved' | 'refund-rejected' | 'refund-failed', reason: string | null = null): Promise<boolean> {
  return queueSellerNotice(tx, { kind, subjectId: refund.id, paymentId: refund.payment.id, params: { paymentId: refund.payment.id, amount: refund.amount, reason } });
}

interface DisputeFacts {
  id: string;
  status: string;
  amount: number;
  reason: string | null;
  payment: { id: string };
}

/** A dispute was opened (its first notice, whatever step it is). */
export function noticeDisputeOpened(tx: EntityManager, dispute: DisputeFacts): Promise<boolean> {
  return queueSellerNotice(tx, {
    kind: 'dispute-opened',
    subjectId: dispute.id,
    paymentId: dispute.payment.id,
    params: { paymentId: dispute.payment.id, amount: dispute.amount, reason: dispute.reason },
  });
}

/** A dispute moved: the seller is told when the move decides it (won, lost, closed); one mail per state reached. */
export async function noticeDisputeMoved(tx: EntityManager, dispute: DisputeFacts): Promise<boolean> {
  if (!DECIDING.includes(dispute.status)) return false;
  return queueSellerNotice(tx, {
    kind: 'dispute-decided',
    subjectId: `${dispute.id}:${dispute.status}`,
    paymentId: dispute.payment.id,
    params: { paymentId: dispute.payment.id, amount: dispute.amount, status: dispute.status },
  });
}

/** A withdrawal was paid (with the transfer reference) or rejected (with the reason). */
export function noticeWithdrawal(
  tx: EntityManager,
  withdrawal: { id: string; amount: number; seller: { id: string }; shop?: { id: string } | null; payoutReference?: string | null; rejectionReason?: string | null },
  kind: 'withdrawal-paid' | 'withdrawal-rejected',
): Promise<boolean> {
  return queueSellerNotice(tx, {
    kind,
    subjectId: withdrawal.id,
    sellerId: withdrawal.seller.id,
    shopId: withdrawal.shop?.id ?? null,
    params: { amount: withdrawal.amount, reference: withdrawal.payoutReference ?? null, reason: withdrawal.rejectionReason ?? null },
  });
}

/** The payout account changed: only the new number's last four characters are told. */
export function noticePayoutAccountChanged(tx: EntityManager, sellerId: string, last4: string | null): Promise<boolean> {
  return queueSellerNotice(tx, { kind: 'payout-account-changed', subjectId: newChangeId(), sellerId, params: { last4 } });
}

/** The webhook URL was set or cleared: only its host is told (a path or query may carry a token). */
export function noticeWebhookUrlChanged(tx: EntityManager, shopId: string, url: string | null): Promise<boolean> {
  return queueSellerNotice(tx, { kind: 'webhook-url-changed', subjectId: newChangeId(), shopId, params: { host: hostOf(url) } });
}

/** The webhook secret was replaced: never the secret itself. */
export function noticeWebhookSecretRotated(tx: EntityManager, shopId: string): Promise<boolean> {
  return queueSellerNotice(tx, { kind: 'webhook-secret-rotated', subjectId: newChangeId(), shopId });
}

/** A sign-in from a browser that is not a known device of the account (src/modules/identity/known-devices.ts): the browser as summarised. */
export function noticeNewSignIn(tx: EntityManager, sellerId: string, browser: string | null): Promise<boolean> {
  return queueSellerNotice(tx, { kind: 'new-sign-in', subjectId: newChangeId(), sellerId, params: { browser } });
}
