import type { EntityManager } from '@mikro-orm/postgresql';
import type { SqlPart } from '../../platform/lifecycle/move-statement';
import { tracingOn } from '../../platform/observability/tracing';
import { HANDED_OVER_AT_SQL, type RelayStatements } from '../../platform/outbox/attempt-relay';
import { commitSignal } from '../../platform/outbox/wake-on-commit';
import { WebhookDeliveryStatus } from './webhook-delivery.entity';

// The webhook outbox's SQL (`webhook_events`, `webhook_deliveries`, docs/decisions/0004-webhook-outbox.md): an
// event's sequence, the relay's look for due deliveries and its queue marks, and a worker's claim and read. Every
// delivery written marks its transaction (DELIVERIES_COMMITTED), so the relays wake at its commit.

/**
 * The relays' one wake-up: deliveries just committed in this process are due now, so the first attempt goes out at
 * once rather than at the next poll. Raised when the transaction `emit` wrote a delivery into commits, and by the
 * card completion, whose one statement (committed when it returns) no commit hook sees. Every relay of the process
 * listens while its runtime runs; deliveries written by other processes are found by the relay's poll.
 */
export const DELIVERIES_COMMITTED = commitSignal();

/** A one-statement move that wrote a delivery has committed (checkout/completion-statement.ts). */
export const deliveriesCommitted = (): void => DELIVERIES_COMMITTED.raise();

/** A payment's next event sequence (the caller holds the payment's row lock). */
const NEXT_SEQUENCE_SQL = 'select coalesce(max("sequence"), 0) + 1 as next from "webhook_events" where "payment_id" = ?';

/** A payment event of a one-statement move: its body is `head`, the sequence the INSERT takes, then `tail`. */
export interface StatementEvent {
  id: string;
  type: string;
  createdAt: Date;
  head: string;
  tail: string;
  paymentId: string;
  /** The type goes to every shop with a webhook URL, whatever it chose (payment.completed). */
  sentToAll: boolean;
  deliveryId: string;
  traceparent: string | null;
}

/**
 * The event's INSERT as a CTE of a one-statement move (checkout/completion-statement.ts), its sequence taken in
 * the same INSERT, and its `delivery` when the shop's webhook receives the type. The statement names the moved
 * payment `moved` and the shop's standing `standing` (`shop_id`, `webhook_url`, `webhook_events`).
 */
export function eventInsertPart(event: StatementEvent): SqlPart & { follows: { delivery: SqlPart } } {
  return {
    sql: `insert into "webhook_events" ("id", "shop_id", "payment_id", "type", "sequence", "body", "test", "created_at", "traceparent")
          select ?::text, s.shop_id, m."id", ?::text, n.next, ?::text || n.next::text || ?::text, false, ?::timestamptz, ?::text
            from moved m cross join standing s cross join (${NEXT_SEQUENCE_SQL}) n
          returning "id"`,
    params: [event.id, event.type, event.head, event.tail, event.createdAt, event.traceparent, event.paymentId],
    follows: {
      delivery: {
        sql: `insert into "webhook_deliveries" ("id", "event_id", "shop_id", "payment_id", "next_attempt_at", "created_at")
              select ?::text, e."id", s.shop_id, ?::text, ?::timestamptz, ?::timestamptz
                from event e cross join standing s
               where s."webhook_url" is not null and (?::boolean or ?::text = any(s."webhook_events"))
              returning "id"`,
        params: [event.deliveryId, event.paymentId, event.createdAt, event.createdAt, event.sentToAll, event.type],
      },
    },
  };
}

/** The next sequence of a payment's or a withdrawal's events (the caller holds its row lock). */
export async function nextEventSequence(tx: EntityManager, column: 'payment_id' | 'withdrawal_id', id: string): Promise<number> {
  const [{ next }] = await tx.execute<{ next: number }[]>(
    `select coalesce(max("sequence"), 0) + 1 as next from "webhook_events" where "${column}" = ?`,
    [id],
  );
  return Number(next);
}

/** A delivery the relay found due: attempt number `attemptCount + 1`, and its event's traceparent (tracing on). */
export interface DueDeliveryRow {
  id: string;
  attemptCount: number;
  traceparent: string | null;
  /** When this attempt was put on the queue before (ms since the epoch) and not claimed since, or null. */
  handedOverAt: number | null;
}

/**
 * Up to `limit` deliveries due for an attempt and not leased, the most overdue first. With `requeueAfterMs` (queue
 * mode), a delivery already handed over for this attempt is left out unless that was longer ago.
 */
async function dueDeliveries(em: EntityManager, limit: number, requeueAfterMs: number | null): Promise<DueDeliveryRow[]> {
  // The event's traceparent is read only with tracing on (a CASE evaluates its subquery only when it is chosen).
  const rows = await em.execute<{ id: string; attempt_count: number; traceparent: string | null; handed_over_at: number | null }[]>(
    `select "id", "attempt_count", ${HANDED_OVER_AT_SQL},
            case when ?::boolean then (select e."traceparent" from "webhook_events" e where e."id" = "event_id") end as traceparent
       from "webhook_deliveries"
      where "status" = ? and "next_attempt_at" <= now()
        and ("locked_until" is null or "locked_until" < now())
        and (?::int is null or "enqueued_attempt" is distinct from "attempt_count" or "enqueued_at" < now() - ?::int * interval '1 millisecond')
      order by "next_attempt_at" limit ?`,
    [tracingOn(), WebhookDeliveryStatus.PENDING, requeueAfterMs, requeueAfterMs, limit],
  );
  return rows.map((row) => ({ id: row.id, attemptCount: row.attempt_count, traceparent: row.traceparent, handedOverAt: row.handed_over_at }));
}

/** Notes what was put on the queue, per delivery and attempt, so the next pass does not put it there again. */
async function markDeliveriesEnqueued(em: EntityManager, due: { id: string; attemptCount: number }[]): Promise<void> {
  await em.execute(
    `update "webhook_deliveries" d set "enqueued_attempt" = v."attempt", "enqueued_at" = now()
       from jsonb_to_recordset(?::jsonb) as v("id" text, "attempt" int) where d."id" = v."id"`,
    [JSON.stringify(due.map((d) => ({ id: d.id, attempt: d.attemptCount })))],
  );
}

/** The webhook relay's statements (src/platform/outbox/attempt-relay.ts). */
export const DELIVERY_STATEMENTS: RelayStatements<EntityManager> = { signal: DELIVERIES_COMMITTED, due: dueDeliveries, markHandedOver: markDeliveriesEnqueued };

/**
 * Claims attempt number `attemptCount + 1` of a pending, due delivery for `leaseMs`: a conditional UPDATE on the
 * attempt count and an expired-or-absent lease, so a duplicate job, a second relay or a retried job can never take
 * the same attempt. Answers the attempt's number and where its retry schedule starts; null when not ours to take.
 */
export async function claimDeliveryAttempt(tx: EntityManager, deliveryId: string, attemptCount: number, leaseMs: number): Promise<{ attemptCount: number; scheduleStart: number } | null> {
  const [row] = await tx.execute<{ attempt_count: number; schedule_start: number }[]>(
    `update "webhook_deliveries"
        set "attempt_count" = "attempt_count" + 1, "last_attempt_at" = now(),
            "locked_until" = now() + ? * interval '1 millisecond'
      where "id" = ? and "status" = ? and "attempt_count" = ? and "next_attempt_at" <= now()
        and ("locked_until" is null or "locked_until" < now())
      returning "attempt_count", "schedule_start"`,
    [leaseMs, deliveryId, WebhookDeliveryStatus.PENDING, attemptCount],
  );
  return row ? { attemptCount: row.attempt_count, scheduleStart: row.schedule_start } : null;
}

/** What a delivery's request needs: the shop's URL (none once the shop is deleted), its sealed secret, the event. */
export interface DeliveryTarget {
  url: string | null;
  /** Sealed with ACCOUNT_SECRETS_KEY. */
  secret: string;
  eventId: string;
  body: string;
  test: boolean;
}

/**
 * A delivery's target in one plain read: a populated find of the delivery, its event and its shop cost about 3 ms
 * of CPU, and a burst of completions is a burst of deliveries (docs/decisions/0004-webhook-outbox.md).
 */
export async function deliveryTarget(tx: EntityManager, deliveryId: string): Promise<DeliveryTarget> {
  const [row] = await tx.execute<{ url: string | null; secret: string; event_id: string; body: string; test: boolean }[]>(
    `select case when s."deleted_at" is null then s."webhook_url" end as url, s."webhook_secret" as secret,
            e."id" as event_id, e."body", e."test"
       from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id" join "shops" s on s."id" = d."shop_id"
      where d."id" = ?`,
    [deliveryId],
  );
  return { url: row.url, secret: row.secret, eventId: row.event_id, body: row.body, test: row.test };
}
