import type { FlaggedNotification } from '../acquirer-inbound';
import type { RunSql } from '../simulator-records';

/** One of Adyen's standard notification items, as kept (never card data: Adyen's items carry none). */
export interface KeptNotification {
  pspReference: string;
  eventCode: string;
  success: boolean;
  merchantReference: string;
  originalReference: string | null;
  amountValue: number;
  currency: string;
  reason: string | null;
  /** When the acquirer says it happened (`eventDate`); null when it did not say. */
  eventDate: Date | null;
  /** Its place in the acquirer's lifecycle: breaks ties between events of one moment. */
  place: number;
  /** The payment it belongs to (the payment's PSP reference): a payment's items are applied one at a time, in order. */
  orderKey: string;
}

/** An item that could not be read (a field missing or invalid): kept as it came, never applied, flagged. */
export interface RejectedNotification {
  pspReference: string;
  eventCode: string;
  success: boolean;
  problem: string;
  item: Record<string, unknown>;
}

/** A kept item waiting to be applied, as the inbox claims it. */
export interface InboxItem extends KeptNotification {
  id: string;
  attempts: number;
}

/** What applying an item came to: done, not fitting what it names, or waiting for an event that has not arrived. */
export type InboxOutcome = { status: 'applied' } | { status: 'flagged'; problem: string } | { status: 'waiting'; problem: string; retryInMs: number };

/**
 * Adyen's notifications as an inbox (`adyen_notifications`): every item is stored before Adyen gets its
 * `[accepted]`, once per (pspReference, eventCode, success), and applied afterwards by the inbox job, with
 * retries. `received` waits to be applied; `waiting` came before an event it follows (tried again when another
 * item of its payment is applied, and on a slow schedule); `applied` is done; `flagged` did not match what it
 * names (no money moved); `rejected` could not be read. The look-ups of reconciliation read applied items only
 * (Checkout v71 has no read API), so an item that did not match never settles anything.
 */
export interface NotificationStore {
  /** Stores an item to apply; true the first time, false for a replay (which changes nothing). */
  accept(item: KeptNotification): Promise<boolean>;
  /** Stores an unreadable item as rejected (once per its key). */
  reject(item: RejectedNotification): Promise<boolean>;
  /**
   * Claims up to `limit` items due to be applied, skipping those another instance holds, and any item of a payment
   * with an earlier item (by event date, place, arrival) still to apply: a payment's items go one at a time, in the
   * acquirer's order, and a failing one holds back those after it. Each is leased for `leaseMs` (an instance that
   * dies mid-way leaves it to be claimed again) and its attempt counted.
   */
  claimDue(limit: number, leaseMs: number): Promise<InboxItem[]>;
  /** Records the outcome; an item applied wakes the waiting items of its payment. */
  settle(item: Pick<InboxItem, 'id'>, outcome: InboxOutcome): Promise<void>;
  /** Applying failed: tried again after `delayMs`. */
  retryLater(id: string, error: string, delayMs: number): Promise<void>;
  latest(eventCode: string, merchantReference: string): Promise<KeptNotification | null>;
  flagged(limit: number): Promise<FlaggedNotification[]>;
  /** A flagged or waiting item to be applied again at once (an admin settled what stood in its way); null when it is neither. */
  reopen(id: string): Promise<FlaggedNotification | null>;
  /** A flagged, waiting or rejected item an admin set aside: no longer listed; null when it is none of these. */
  dismiss(id: string): Promise<FlaggedNotification | null>;
}

const COLUMNS = `"psp_reference", "event_code", "success", "merchant_reference", "original_reference", "amount_value", "currency", "reason", "event_date", "place", "order_key"`;
/** Where an item stands among its payment's items: the acquirer's order, then arrival. */
const ORDER = (n: string) => `(coalesce(${n}."event_date", ${n}."received_at"), ${n}."place", ${n}."id")`;

export function sqlNotificationStore(run: RunSql): NotificationStore {
  return {
    async accept(n) {
      const rows = await run(
        `insert into "adyen_notifications" (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          on conflict ("psp_reference", "event_code", "success") do nothing returning "id"`,
        [n.pspReference, n.eventCode, n.success, n.merchantReference, n.originalReference, n.amountValue, n.currency, n.reason, n.eventDate, n.place, n.orderKey],
      );
      return rows.length === 1;
    },
    async reject(n) {
      const rows = await run(
        `insert into "adyen_notifications" ("psp_reference", "event_code", "success", "status", "problem", "item")
          values (?, ?, ?, 'rejected', ?, ?) on conflict ("psp_reference", "event_code", "success") do nothing returning "id"`,
        [n.pspReference, n.eventCode, n.success, n.problem, JSON.stringify(n.item)],
      );
      return rows.length === 1;
    },
    async claimDue(limit, leaseMs) {
      const rows = await run(
        `update "adyen_notifications" set "next_attempt_at" = now() + make_interval(secs => ?::double precision), "attempts" = "attempts" + 1
          where "id" in (select n."id" from "adyen_notifications" n
                         where n."status" in ('received', 'waiting') and n."next_attempt_at" <= now()
                           and not exists (select 1 from "adyen_notifications" o where o."order_key" = n."order_key" and o."status" = 'received'
                                           and ${ORDER('o')} < ${ORDER('n')})
                         order by n."id" limit ? for update skip locked)
          returning "id", "attempts", ${COLUMNS}`,
        [leaseMs / 1000, limit],
      );
      return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ id: String(row.id), attempts: Number(row.attempts), ...keptOf(row) }));
    },
    async settle(item, outcome) {
      const retryInSeconds = outcome.status === 'waiting' ? outcome.retryInMs / 1000 : 0;
      await run(
        `update "adyen_notifications" set "status" = ?, "problem" = ?, "applied_at" = case when ? = 'applied' then now() end, "last_error" = null,
            "next_attempt_at" = now() + make_interval(secs => ?::double precision)
          where "id" = ? and "status" in ('received', 'waiting')`,
        [outcome.status, outcome.status === 'applied' ? null : outcome.problem, outcome.status, retryInSeconds, item.id],
      );
      // What waited for this item may fit now: due at once.
      if (outcome.status === 'applied') {
        await run(
          `update "adyen_notifications" set "next_attempt_at" = now()
            where "order_key" = (select "order_key" from "adyen_notifications" where "id" = ?) and "status" = 'waiting' and "id" <> ?`,
          [item.id, item.id],
        );
      }
    },
    async retryLater(id, error, delayMs) {
      await run(
        `update "adyen_notifications" set "last_error" = ?, "next_attempt_at" = now() + make_interval(secs => ?::double precision) where "id" = ? and "status" = 'received'`,
        [error.slice(0, 2000), delayMs / 1000, id],
      );
    },
    async latest(eventCode, merchantReference) {
      const [row] = await run(
        `select * from "adyen_notifications" where "event_code" = ? and "merchant_reference" = ? and "status" = 'applied' order by "id" desc limit 1`,
        [eventCode, merchantReference],
      );
      return row ? keptOf(row) : null;
    },
    async flagged(limit) {
      const rows = await run(
        `select ${LISTED} from "adyen_notifications" where "status" in ('flagged', 'rejected', 'waiting') order by "received_at" desc, "id" desc limit ?`,
        [limit],
      );
      return rows.map(listedOf);
    },
    async reopen(id) {
      const [row] = await run(
        `update "adyen_notifications" set "status" = 'received', "next_attempt_at" = now(), "attempts" = 0, "last_error" = null
          where "id" = ? and "status" in ('flagged', 'waiting') returning ${LISTED}`,
        [id],
      );
      return row ? listedOf(row) : null;
    },
    async dismiss(id) {
      const [row] = await run(`update "adyen_notifications" set "status" = 'dismissed' where "id" = ? and "status" in ('flagged', 'waiting', 'rejected') returning ${LISTED}`, [id]);
      return row ? listedOf(row) : null;
    },
  };
}

const LISTED = `"id", "psp_reference", "event_code", "success", "merchant_reference", "amount_value", "currency", "status", "problem", "received_at"`;

function listedOf(row: Record<string, unknown>): FlaggedNotification {
  return {
    id: String(row.id),
    pspReference: String(row.psp_reference),
    eventCode: String(row.event_code),
    success: Boolean(row.success),
    merchantReference: (row.merchant_reference as string | null) ?? null,
    amountValue: row.amount_value === null ? null : Number(row.amount_value),
    currency: (row.currency as string | null) ?? null,
    status: row.status as FlaggedNotification['status'],
    problem: String(row.problem ?? ''),
    receivedAt: new Date(row.received_at as string),
  };
}

function keptOf(row: Record<string, unknown>): KeptNotification {
  return {
    pspReference: String(row.psp_reference),
    eventCode: String(row.event_code),
    success: Boolean(row.success),
    merchantReference: String(row.merchant_reference ?? ''),
    originalReference: (row.original_reference as string | null) ?? null,
    amountValue: Number(row.amount_value),
    currency: String(row.currency),
    reason: (row.reason as string | null) ?? null,
    eventDate: row.event_date ? new Date(row.event_date as string) : null,
    place: Number(row.place ?? 0),
    orderKey: String(row.order_key ?? row.psp_reference),
  };
}
