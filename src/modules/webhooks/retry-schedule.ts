import { enumOf } from '../../platform/lifecycle/lifecycle';
import { backOffMs, type BackOff } from '../../platform/outbox/outbox';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhook-delivery.lifecycle';
/**
 * When a failed delivery is tried again: exponential back-off with jitter, persisted as the delivery's
 * `next_attempt_at`. The n-th retry waits base x 2^(n-1), capped at 720 x base, plus up to 20% jitter
 * (jitter only lengthens a delay, so the schedule never ends sooner than its nominal length). At the
 * default base of one minute and 16 attempts that is 1 min, 2, 4, ... 512 min, then 12 h five times:
 * 77 hours (3 days 5 hours) from the first attempt to the last.
 */
export interface RetryPolicy {
  /** WEBHOOK_RETRY_BASE_DELAY_MS */
  baseDelayMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: attempts in one schedule, the first included. */
  maxAttempts: number;
}

/** The longest back-off step, as a multiple of the base delay (12 hours at the default 1 minute). */
export const MAX_DELAY_FACTOR = 720;
/** Each delay is lengthened by a random 0 to 20%, so receivers coming back from an outage are not hit all at once. */
export const JITTER = 0.2;
/** Statuses whose Retry-After we honour (RFC 9110: 429 Too Many Requests, 503 Service Unavailable). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/** The schedule as the outbox engine's back-off. */
const backOffOf = (policy: RetryPolicy, jitter: number): BackOff => ({ firstMs: policy.baseDelayMs, maxMs: policy.baseDelayMs * MAX_DELAY_FACTOR, jitter });

/** The delay before retry number `retry` (1 = the wait after the first failed attempt), without jitter. */
export function nominalDelayMs(policy: RetryPolicy, retry: number): number {
  return backOffMs(backOffOf(policy, 0), retry);
}

/** The nominal waits between the attempts of one schedule (maxAttempts - 1 of them), for the README and tests. */
export function nominalSchedule(policy: RetryPolicy): number[] {
  return Array.from({ length: policy.maxAttempts - 1 }, (_, i) => nominalDelayMs(policy, i + 1));
}

/**
 * The wait after failed attempt number `failedAttempts` of this schedule. A 429 or 503 answer's
 * Retry-After (seconds or an HTTP date) is honoured when it asks for longer, up to the longest step.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  failedAttempts: number,
  answer: { status: number | null; retryAfter: string | null },
  now: Date = new Date(),
  random: () => number = Math.random,
): number {
  const backOff = Math.round(backOffMs(backOffOf(policy, JITTER), failedAttempts, random));
  if (answer.status === null || !RETRY_AFTER_STATUSES.has(answer.status)) return backOff;
  const asked = retryAfterMs(answer.retryAfter, now);
  if (asked === null) return backOff;
  return Math.max(backOff, Math.min(asked, policy.baseDelayMs * MAX_DELAY_FACTOR));
}

/** `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` as milliseconds from `now`; null if absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/[a-z]/i.test(value)) return null;
  return Math.max(0, at - now.getTime());
}

/** Only HTTP 200 counts as delivered (spec: a non-200 answer causes a redelivery attempt). */
export function isDelivered(status: number | null): boolean {
  return status === 200;
}

const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);

/** Where a delivery stands after an attempt, and the delivery table's move that takes it there. */
export type DeliveryOutcome =
  | { move: 'deliver'; status: typeof DELIVERY.DELIVERED; at: Date }
  | { move: 'giveUp'; status: typeof DELIVERY.FAILED; at: Date }
  | { move: 'retry'; status: typeof DELIVERY.PENDING; nextAttemptAt: Date };

/**
 * After attempt number `attemptsInSchedule` of the current schedule: delivered on 200; failed when the
 * schedule is used up or the attempt was final (a test delivery, a shop without URL); else the next retry.
 */
export function outcomeAfterAttempt(
  policy: RetryPolicy,
  attemptsInSchedule: number,
  answer: { status: number | null; retryAfter: string | null },
  final: boolean,
  now: Date = new Date(),
  random: () => number = Math.random,
): DeliveryOutcome {
  if (isDelivered(answer.status)) return { move: 'deliver', status: DELIVERY.DELIVERED, at: now };
  if (final || attemptsInSchedule >= policy.maxAttempts) return { move: 'giveUp', status: DELIVERY.FAILED, at: now };
  return { move: 'retry', status: DELIVERY.PENDING, nextAttemptAt: new Date(now.getTime() + retryDelayMs(policy, attemptsInSchedule, answer, now, random)) };
}
