import { timingSafeEqual, createHash } from 'node:crypto';
import type { hmacValidator as HmacValidator, Types } from '@adyen/api-library';
import type { DisputeStep } from '../card-processor';
import type { AcquirerEvent, NotifiedMoney } from '../card-processor';
import type { KeptNotification, RejectedNotification } from './notification-store';
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
  // Without a match `given` is empty, which never equals "user:password" (it holds a colon).
  return timingSafeEqual(digest(given), digest(`${credentials.username}:${credentials.password}`));
}

/** One item as it came, before its fields are checked. */
export type RawItem = Record<string, unknown>;

/**
 * The items of a standard notification (`notificationItems[].NotificationRequestItem`), each an object, or
 * null when the body is not a standard notification at all. Their fields are checked one by one (readItem):
 * one malformed item does not refuse the others.
 */
export function notificationItems(body: unknown): RawItem[] | null {
  const items = (body as { notificationItems?: unknown })?.notificationItems;
  if (!Array.isArray(items) || items.length === 0) return null;
  const list = items.map((entry) => (entry as { NotificationRequestItem?: unknown })?.NotificationRequestItem);
  return list.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item)) ? (list as RawItem[]) : null;
}

/** The library's validator alone (its package index loads every API's typings): loaded by the first check. */
function validator(): typeof HmacValidator {
  return (require('@adyen/api-library/lib/src/utils/hmacValidator') as { default: typeof HmacValidator }).default;
}

/**
 * Adyen's HMAC of one item (`additionalData.hmacSignature`), checked with the library's own validator. An
 * item without an amount is signed over empty amount fields, as Adyen signs it, so a malformed item from
 * Adyen is still recognised as Adyen's (and kept as rejected) while a forged one is refused.
 */

export function signatureValid(item: RawItem | NotificationRequestItem, hmacKey: string): boolean {
  try {
    return new (validator())().validateHMAC({ ...item, amount: item.amount ?? {} } as NotificationRequestItem, hmacKey);
  } catch {
    return false; // no signature at all
  }
}

/** An item's fields as kept, or why it cannot be applied (it is kept as rejected, and flagged). */
export function readItem(item: RawItem): { kept: KeptNotification } | { rejected: RejectedNotification } {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const amount = (item.amount ?? {}) as { value?: unknown; currency?: unknown };
  const problems = [
    !/^[A-Za-z0-9_-]{1,64}$/.test(text(item.pspReference) ?? '') && 'pspReference',
    !/^[A-Z_]{1,64}$/.test(text(item.eventCode) ?? '') && 'eventCode',
    !['true', 'false'].includes(String(item.success)) && 'success',
    item.merchantReference !== undefined && typeof item.merchantReference !== 'string' && 'merchantReference',
    !(Number.isSafeInteger(amount.value) && (amount.value as number) >= 0) && 'amount.value',
    !/^[A-Z]{3}$/.test(text(amount.currency) ?? '') && 'amount.currency',
  ].filter(Boolean);
  const success = String(item.success) === 'true';
  if (problems.length) {
    const digest = createHash('sha256').update(JSON.stringify(item)).digest('hex').slice(0, 32);
    return {
      rejected: {
        // A replay of the same malformed item is kept once: keyed by its content when it has no usable reference.
        pspReference: problems.includes('pspReference') ? `malformed:${digest}` : String(item.pspReference),
        eventCode: problems.includes('eventCode') ? 'UNKNOWN' : String(item.eventCode),
        success,
        problem: `malformed item: ${problems.join(', ')} missing or invalid`,
        item,
      },
    };
  }
  return {
    kept: {
      pspReference: String(item.pspReference),
      eventCode: String(item.eventCode),
      success,
      merchantReference: text(item.merchantReference) ?? '',
      originalReference: text(item.originalReference) ?? null,
      amountValue: amount.value as number,
      currency: amount.currency as string,
      reason: text(item.reason) ?? null,
      eventDate: eventDateOf(item.eventDate),
      place: placeOf(String(item.eventCode)),
      // A refund's, a cancellation's and a dispute's item name the payment by `originalReference`; an authorisation is the payment.
      orderKey: text(item.originalReference) || String(item.pspReference),
    },
  };
}

/** Adyen's `eventDate` (ISO 8601 with an offset); null when missing or unreadable: the item is then ordered by its arrival. */
function eventDateOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time);
}

/**
 * Where an event code stands in a payment's life, for events of one moment: the authorisation, then a cancellation,
 * a refund and what undoes it, then a dispute's steps in the order Adyen's dispute flow takes them.
 */
const PLACES: Record<string, number> = {
  AUTHORISATION: 0, CANCELLATION: 1, CANCEL_OR_REFUND: 1, REFUND: 2, REFUND_FAILED: 3, REFUNDED_REVERSED: 3,
  NOTIFICATION_OF_CHARGEBACK: 4, REQUEST_FOR_INFORMATION: 4, CHARGEBACK: 5, CHARGEBACK_REVERSED: 6, SECOND_CHARGEBACK: 7,
  DISPUTE_DEFENSE_PERIOD_ENDED: 8, ISSUER_RESPONSE_TIMEFRAME_EXPIRED: 8, PREARBITRATION_LOST: 8, SCHEME_ARBITRATION_LOST: 8,
  PREARBITRATION_WON: 9, SCHEME_ARBITRATION_WON: 9,
};

export function placeOf(eventCode: string): number {
  return Object.prototype.hasOwnProperty.call(PLACES, eventCode) ? PLACES[eventCode] : 10;
}

/**
 * The `event` label of the notification metric, counted both where a notification is accepted and where it is
 * applied. Event codes are Adyen's upper-case names; anything else is counted as `other`, so labels stay few.
 */
export function metricEvent(eventCode: string): string {
  return /^[A-Z_]{1,40}$/.test(eventCode) ? eventCode : 'other';
}

/**
 * Every event code of Adyen's standard notifications (Webhooks-v1) and what it does to money here; the
 * table of docs/acquirers.md says the same in words (a test holds them together). An event code not listed
 * is acknowledged and kept, like `nothing`.
 */
type Reading = (kept: KeptNotification, money: NotifiedMoney) => AcquirerEvent;

const dispute = (step: DisputeStep): Reading => (kept, money) => ({
  kind: 'dispute', step, paymentId: kept.merchantReference, reference: kept.pspReference, money, reason: kept.reason, occurredAt: kept.eventDate,
});

export const EVENT_READINGS: Record<string, Reading> = {
  AUTHORISATION: (kept, money) => ({
    kind: 'authorization',
    paymentId: kept.merchantReference,
    money,
    outcome: kept.success
      ? { kind: 'approved', reference: kept.pspReference, threeDs: null }
      : { kind: 'declined', code: failureCodeOfReasonText(kept.reason ?? undefined), threeDs: null },
  }),
  REFUND: (kept, money) => ({
    kind: 'refund',
    refundId: kept.merchantReference,
    money,
    outcome: kept.success ? { kind: 'refunded', reference: kept.pspReference } : { kind: 'declined', reason: kept.reason || 'refund_failed' },
  }),
  REFUND_FAILED: (kept, money) => ({ kind: 'refund', refundId: kept.merchantReference, money, outcome: { kind: 'declined', reason: kept.reason || 'refund_failed' } }),
  REFUNDED_REVERSED: (kept, money) => ({ kind: 'refund_reversed', refundId: kept.merchantReference, money }),
  CANCELLATION: (kept) => ({ kind: 'cancellation', paymentId: kept.merchantReference, cancelled: kept.success }),
  CANCEL_OR_REFUND: (kept) => ({ kind: 'cancellation', paymentId: kept.merchantReference, cancelled: kept.success }),
  NOTIFICATION_OF_CHARGEBACK: dispute('open'),
  REQUEST_FOR_INFORMATION: dispute('open'),
  CHARGEBACK: dispute('chargeBack'),
  CHARGEBACK_REVERSED: dispute('reverse'),
  SECOND_CHARGEBACK: dispute('secondChargeback'),
  PREARBITRATION_WON: dispute('win'),
  SCHEME_ARBITRATION_WON: dispute('win'),
  PREARBITRATION_LOST: dispute('lose'),
  SCHEME_ARBITRATION_LOST: dispute('lose'),
  DISPUTE_DEFENSE_PERIOD_ENDED: dispute('lose'),
  ISSUER_RESPONSE_TIMEFRAME_EXPIRED: dispute('close'),
};

/**
 * One kept item in the port's terms. `merchantReference` is our payment id (AUTHORISATION, CANCELLATION and
 * the dispute events) or our refund id (REFUND, REFUND_FAILED, REFUNDED_REVERSED); amounts are minor units,
 * as ours. A dispute event with `success=false` (Adyen sends none) and any other code are only acknowledged.
 */
export function eventOf(kept: KeptNotification): AcquirerEvent {
  const reading = Object.prototype.hasOwnProperty.call(EVENT_READINGS, kept.eventCode) ? EVENT_READINGS[kept.eventCode] : undefined;
  const event = reading?.(kept, { amount: kept.amountValue, currency: kept.currency });
  if (!event || (event.kind === 'dispute' && !kept.success)) return { kind: 'other', name: kept.eventCode };
  return event;
}
