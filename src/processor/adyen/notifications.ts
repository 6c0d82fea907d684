import { timingSafeEqual, createHash } from 'node:crypto';
import { hmacValidator, type Types } from '@adyen/api-library';
import type { AcquirerEvent } from '../card-processor';
import type { KeptNotification } from './notification-store';
import { failureCodeOfReasonText } from './refusal-reasons';

type NotificationRequestItem = Types.notification.NotificationRequestItem;

/** What Adyen's notification endpoint must know to trust a request. */
export interface NotificationCredentials {
  username: string;
  password: string;
  hmacKey: string;
}

/**
 * Basic auth of the notification request, compared in constant time (both sides hashed first, so the
 * comparison does not even reveal the length).
 */
export function basicAuthMatches(header: string | undefined, credentials: NotificationCredentials): boolean {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  const given = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(`${credentials.username}:${credentials.password}`)) && match !== null;
}

/** The items of a standard notification (`notificationItems[].NotificationRequestItem`), or null when it is not one. */
export function notificationItems(body: unknown): NotificationRequestItem[] | null {
  const items = (body as { notificationItems?: unknown })?.notificationItems;
  if (!Array.isArray(items) || items.length === 0) return null;
  const list = items.map((entry) => (entry as { NotificationRequestItem?: NotificationRequestItem })?.NotificationRequestItem);
  return list.every((item) => item && typeof item === 'object' && typeof item.pspReference === 'string' && typeof item.eventCode === 'string' && item.amount)
    ? (list as NotificationRequestItem[])
    : null;
}

/** Adyen's HMAC of one item (`additionalData.hmacSignature`), checked with the library's own validator. */
export function signatureValid(item: NotificationRequestItem, hmacKey: string): boolean {
  try {
    return new hmacValidator().validateHMAC(item, hmacKey);
  } catch {
    return false; // no signature at all
  }
}

export function keptOf(item: NotificationRequestItem): KeptNotification {
  return {
    pspReference: item.pspReference,
    eventCode: item.eventCode,
    success: String(item.success) === 'true',
    merchantReference: item.merchantReference ?? '',
    originalReference: item.originalReference ?? null,
    amountValue: Number(item.amount.value ?? 0),
    currency: item.amount.currency ?? '',
    reason: item.reason ?? null,
  };
}

/**
 * One verified item in the port's terms. `merchantReference` is our payment id (AUTHORISATION, CANCELLATION,
 * CHARGEBACK) or our refund id (REFUND, REFUND_FAILED); amounts are minor units, as ours.
 */
export function eventOf(item: NotificationRequestItem): AcquirerEvent {
  const kept = keptOf(item);
  switch (kept.eventCode) {
    case 'AUTHORISATION':
      return {
        kind: 'authorization',
        paymentId: kept.merchantReference,
        outcome: kept.success
          ? { kind: 'approved', reference: kept.pspReference, threeDs: null }
          : { kind: 'declined', code: failureCodeOfReasonText(kept.reason ?? undefined), threeDs: null },
      };
    case 'REFUND':
    case 'REFUND_FAILED':
      return {
        kind: 'refund',
        refundId: kept.merchantReference,
        outcome: kept.eventCode === 'REFUND' && kept.success ? { kind: 'refunded', reference: kept.pspReference } : { kind: 'declined', reason: kept.reason || 'refund_failed' },
      };
    case 'CANCELLATION':
    case 'CANCEL_OR_REFUND':
      return { kind: 'cancellation', paymentId: kept.merchantReference, cancelled: kept.success };
    case 'CHARGEBACK':
      return { kind: 'chargeback', paymentId: kept.merchantReference, reference: kept.pspReference, amount: kept.amountValue, currency: kept.currency, reason: kept.reason };
    default:
      return { kind: 'other', name: kept.eventCode };
  }
}
