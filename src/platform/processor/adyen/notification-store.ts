import { enumOf, moveOf, sqlList } from '../../lifecycle/lifecycle';
import { moveStatement, type SqlPart } from '../../lifecycle/move-statement';
import type { FlaggedNotification } from '../acquirer-inbound';
import type { RunSql } from '../simulated-operation-store';
import { ACQUIRER_NOTIFICATION_LIFECYCLE as INBOX } from './acquirer-notification.lifecycle';

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

/** What applying an item came to, as the inbox table's move: done, not fitting what it names, or waiting for an event that has not arrived. */
export type InboxOutcome = { move: 'apply' } | { move: 'flag'; problem: string } | { move: 'wait'; problem: string; retryInMs: number };

/**
 * Adyen's notifications as an inbox (`adyen_notifications`): every item is stored before Adyen gets its
 * `[accepted]`, once per (pspReference, eventCode, success), and applied afterwards by the inbox job, with
 * retries. Its states and moves are the inbox's lifecycle table (acquirer-notification.lifecycle.ts), and every
 * move is the move engine's statement (moveStatement). The look-ups of reconciliation read applied items only
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

const STATUS = enumOf(INBOX.states);
/** Due to be applied: the states the inbox job's moves leave. */
const DUE = sqlList(moveOf(INBOX, 'apply').from);
/** What admins are shown, and may dismiss. */
const LISTED_STATES = sqlList(moveOf(INBOX, 'dismiss').from);
const seconds = (ms: number): SqlPart => ({ sql: 'now() + make_interval(secs => ?::double precision)', params: [ms / 1000] });
const value = (v: unknown): SqlPart => ({ sql: '?', params: [v] });
const NOW: SqlPart = { sql: 'now()', params: [] };
const NULL: SqlPart = { sql: 'null', params: [] };

export function sqlNotificationStore(run: RunSql): NotificationStore {
  /** An admin's move of one item, answering the item as listed after it (null when it was in no state the move leaves). */
  const moveListed = async (id: string, move: 'retry' | 'dismiss', set: Record<string, SqlPart> = {}): Promise<FlaggedNotification | null> => {
    const { sql, params } = moveStatement(INBOX, move, { id, set, returning: LISTED_COLUMNS, select: { sql: `select ${LISTED} from moved`, params: [] } });
    const [row] = await run(sql, [...params]);
    return row ? listedOf(row) : null;
  };
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
          values (?, ?, ?, ?, ?, ?) on conflict ("psp_reference", "event_code", "success") do nothing returning "id"`,
        [n.pspReference, n.eventCode, n.success, STATUS.REJECTED, n.problem, JSON.stringify(n.item)],
      );
      return rows.length === 1;
    },
    async claimDue(limit, leaseMs) {
      const rows = await run(
        `update "adyen_notifications" set "next_attempt_at" = now() + make_interval(secs => ?::double precision), "attempts" = "attempts" + 1
          where "id" in (select n."id" from "adyen_notifications" n
                         where n."status" in (${DUE}) and n."next_attempt_at" <= now()
                           and not exists (select 1 from "adyen_notifications" o where o."order_key" = n."order_key" and o."status" in (${sqlList([STATUS.RECEIVED])})
                                           and ${ORDER('o')} < ${ORDER('n')})
                         order by n."id" limit ? for update skip locked)
          returning "id", "attempts", ${COLUMNS}`,
        [leaseMs / 1000, limit],
      );
      return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => ({ id: String(row.id), attempts: Number(row.attempts), ...keptOf(row) }));
    },
    async settle(item, outcome) {
      const { sql, params } = moveStatement(INBOX, outcome.move, {
        id: item.id,
        set: {
          problem: outcome.move === 'apply' ? NULL : value(outcome.problem),
          applied_at: outcome.move === 'apply' ? NOW : NULL,
          last_error: NULL,
          next_attempt_at: seconds(outcome.move === 'wait' ? outcome.retryInMs : 0),
        },
        select: { sql: 'select "id" from moved', params: [] },
      });
      await run(sql, [...params]);
      // What waited for this item may fit now: due at once.
      if (outcome.move === 'apply') {
        await run(
          `update "adyen_notifications" set "next_attempt_at" = now()
            where "order_key" = (select "order_key" from "adyen_notifications" where "id" = ?) and "status" in (${sqlList([STATUS.WAITING])}) and "id" <> ?`,
          [item.id, item.id],
        );
      }
    },
    async retryLater(id, error, delayMs) {
      // Applying failed: no move (the table's stay), only the next try.
      await run(
        `update "adyen_notifications" set "last_error" = ?, "next_attempt_at" = now() + make_interval(secs => ?::double precision) where "id" = ? and "status" in (${sqlList(INBOX.stays!['outcome unknown'].in)})`,
        [error.slice(0, 2000), delayMs / 1000, id],
      );
    },
    async latest(eventCode, merchantReference) {
      const [row] = await run(
        `select * from "adyen_notifications" where "event_code" = ? and "merchant_reference" = ? and "status" in (${sqlList([STATUS.APPLIED])}) order by "id" desc limit 1`,
        [eventCode, merchantReference],
      );
      return row ? keptOf(row) : null;
    },
    async flagged(limit) {
      const rows = await run(`select ${LISTED} from "adyen_notifications" where "status" in (${LISTED_STATES}) order by "received_at" desc, "id" desc limit ?`, [limit]);
      return rows.map(listedOf);
    },
    reopen: (id) => moveListed(id, 'retry', { next_attempt_at: NOW, attempts: value(0), last_error: NULL }),
    dismiss: (id) => moveListed(id, 'dismiss'),
  };
}

const LISTED_COLUMNS = ['psp_reference', 'event_code', 'success', 'merchant_reference', 'amount_value', 'currency', 'status', 'problem', 'received_at'];
const LISTED = ['id', ...LISTED_COLUMNS].map((column) => `"${column}"`).join(', ');

function listedOf(row: Record<string, unknown>): FlaggedNotification {
  return {
    id: String(row.id),
    pspReference: String(row.psp_reference),
    eventCode: String(row.event_code),
    success: Boolean(row.success),
    merchantReference: (row.merchant_reference as string | null) ?? null,
    amountValue: row.amount_value === null ? null : Number(row.amount_value),
    currency: (row.currency as string | null) ?? null,
    status: String(row.status),
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
