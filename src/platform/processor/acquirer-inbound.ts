import type { Router } from 'express';
import type { Logger } from '../../shared/logger';
import type { Metrics } from '../observability/metrics';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import type { AcquirerEvent, CardProcessor } from './card-processor';

/**
 * The acquirer's side of the conversation, inbound: what it tells us on its own (a notification, the simulator's
 * scheduled events) waits in its inbox and is applied afterwards by the checkout module, whatever the acquirer
 * (docs/acquirers.md, "Notifications"). The outbound side is `CardProcessor` (card-processor.ts).
 */

/** An event claimed from an acquirer's inbox, in the port's terms. */
export interface InboxEntry {
  id: string;
  /** Attempts so far, this one included. */
  attempts: number;
  event: AcquirerEvent;
  /** What the logs name the entry by, in the acquirer's words (its references). */
  logContext: Record<string, unknown>;
  /** The notification metric's `event` label; none when the acquirer's events are not counted. */
  metricEvent?: string;
}

/** What admins see of an event that booked nothing: malformed, not matching what it names, or waiting for one it follows. */
export interface FlaggedNotification {
  id: string;
  /** The acquirer's reference of the event. */
  pspReference: string;
  eventCode: string;
  success: boolean;
  merchantReference: string | null;
  amountValue: number | null;
  currency: string | null;
  /**
   * Its state in the adapter's inbox table (Adyen's: adyen/acquirer-notification.lifecycle.ts). As listed: flagged,
   * rejected or waiting; after an admin's hand, received (applied again) or dismissed.
   */
  status: string;
  problem: string;
  receivedAt: Date;
}

type Level = 'error' | 'warn' | 'info';

/** How the drain treats one acquirer's inbox: its schedules and its log lines, which each acquirer keeps as its own. */
export interface InboxPolicy {
  /** The back-off after an attempt that threw. */
  retry: { firstMs: number; maxMs: number };
  /**
   * An event that came before one it follows is tried again on this schedule. `listed`: it is set aside as waiting
   * (listed for admins, counted as settled); otherwise it is only due again.
   */
  waiting: { firstMs: number; maxMs: number; listed: boolean };
  /** From this many attempts an event that keeps failing is logged as an error (null: a warning, always). */
  alarmAfterAttempts: number | null;
  log: {
    passFailed: string;
    applied: string;
    flagged: { level: Level; message: string };
    waiting: { level: Level; message: string };
    failed: string;
  };
}

/**
 * An acquirer's inbox, as the drain and the admins use it: every adapter keeps its events in a table of its own and
 * implements this over it. Claims take a lease and count the attempt, so any number of instances may drain it.
 */
export interface AcquirerInbox {
  readonly policy: InboxPolicy;
  /** Up to `limit` events due now, skipping those another instance holds, each leased for `leaseMs`. */
  claimDue(limit: number, leaseMs: number): Promise<InboxEntry[]>;
  /** Applied (`effect` says what it did): never claimed again. */
  told(id: string, effect: string): Promise<void>;
  /** Did not fit what it names: nothing booked, never applied again unless an admin reopens it. */
  flag(id: string, problem: string): Promise<void>;
  /** Came before an event it follows: tried again after `delayMs` (policy.waiting). */
  wait(id: string, problem: string, delayMs: number): Promise<void>;
  /** Applying threw: tried again after `delayMs`. */
  retryLater(id: string, delayMs: number, error?: string): Promise<void>;
  /** What booked nothing and needs an admin's eye, newest first. */
  flagged(limit: number): Promise<FlaggedNotification[]>;
  /** A flagged or waiting event to be applied again at once; null when it is neither. */
  reopen(id: string): Promise<FlaggedNotification | null>;
  /** A flagged, waiting or rejected event an admin set aside: no longer listed; null when it is none of these. */
  dismiss(id: string): Promise<FlaggedNotification | null>;
}

/** What the app hands an acquirer's endpoint. */
export interface InboundHandler {
  /** Events were kept in the inbox (their statements committed): wakes the drain that applies them. */
  accepted(): void;
  /** Failed authentications per client address (the same budget as wrong API keys). */
  authFailures: RateLimiter;
  metrics: Metrics;
  logger: Logger;
}

/**
 * An acquirer's notification endpoint: the adapter authenticates the request, parses it into what its inbox keeps and
 * answers as the acquirer requires; the app mounts the router.
 */
export type InboundEndpoint = (handler: InboundHandler) => Router;

/** A chargeback the simulator's issuer is to reverse: the dispute as the acquirer knows it. */
export interface SimulatedChargeback {
  paymentId: string;
  reference: string;
  amount: number;
  currency: string;
}

/**
 * The simulated acquirer's own events, as the service drives them: `drain` tells those due now (a dispute, a refund
 * failure), `reverseChargeback` has its issuer reverse a chargeback and tells it at once (the back office's button).
 */
export interface SimulatorControls {
  drain(): Promise<number>;
  reverseChargeback(chargeback: SimulatedChargeback): Promise<void>;
}

/**
 * An acquirer as an adapter gives it to the app (processors.ts): the outbound port, the inbox its events wait in, and
 * its notification endpoint, which the app mounts (none for the simulator, which schedules its events itself).
 */
export interface Acquirer {
  processor: CardProcessor;
  inbox: AcquirerInbox;
  endpoint: InboundEndpoint | null;
}
