import type { AcquirerInbox, InboxEntry, InboxPolicy } from './acquirer-inbound';
import type { AcquirerEvent } from './card-processor';
import type { RunSql } from './simulated-operation-store';

/** An event the simulated acquirer will tell about a payment (or its refund or dispute) once `delayMs` have passed. */
export interface ScheduledEvent {
  /** One event once: scheduling the same key again changes nothing (a repeated call is answered, not told twice). */
  key: string;
  paymentId: string;
  event: AcquirerEvent;
  delayMs: number;
}

/**
 * The simulated acquirer's events waiting to be told (`simulated_acquirer_events`): what Adyen keeps sending until we
 * accept it. The simulator's implementation of the port's inbox (acquirer-inbound.ts), drained as Adyen's is: claimed
 * with a lease, so an instance that dies mid-way leaves the event to another; told once applied. An event that does
 * not fit what it names is told as `flagged` and not listed: the simulator's events are the test cards'.
 */
export interface SimulatedEventStore extends AcquirerInbox {
  schedule(event: ScheduledEvent): Promise<void>;
  /** Up to `limit` events due now, oldest due first, each leased for `leaseMs` and its attempt counted. */
  claimDue(limit: number, leaseMs: number): Promise<InboxEntry[]>;
  /** Not applied this time: due again after `delayMs`. */
  retryLater(id: string, delayMs: number): Promise<void>;
  /** The events of a payment not told yet are dropped (its authorization was voided: nothing follows a void). */
  cancel(paymentId: string): Promise<void>;
}

/** An event that failed to apply, or that waits for the one it follows, is tried again from one second, doubling, up to a minute. */
const RETRY = { firstMs: 1000, maxMs: 60_000 };

const POLICY: InboxPolicy = {
  retry: RETRY,
  waiting: { ...RETRY, listed: false },
  alarmAfterAttempts: null,
  log: {
    passFailed: 'simulated acquirer: pass failed',
    applied: 'simulated acquirer: event applied',
    flagged: { level: 'warn', message: 'simulated acquirer: the event does not fit what it names: nothing booked' },
    waiting: { level: 'info', message: 'simulated acquirer: the event waits for the one it follows' },
    failed: 'simulated acquirer: the event could not be applied: it will be tried again',
  },
};

/** A claimed event as the drain takes it. */
function entryOf(id: string, attempts: number, event: AcquirerEvent): InboxEntry {
  return { id, attempts, event, logContext: { simulatedEventId: id, event: event.kind, ...('step' in event ? { step: event.step } : {}) } };
}

/** The table's statements as the port's inbox: an event set aside is told `flagged`, a waiting one due again; nothing is listed. */
function asInbox<Table extends Pick<SimulatedEventStore, 'schedule' | 'claimDue' | 'told' | 'retryLater' | 'cancel'>>(table: Table): Table & SimulatedEventStore {
  return {
    ...table,
    policy: POLICY,
    flag: (id) => table.told(id, 'flagged'),
    wait: (id, _problem, delayMs) => table.retryLater(id, delayMs),
    flagged: async () => [],
    reopen: async () => null,
    dismiss: async () => null,
  };
}

/** The event as kept: its date (a dispute's `occurredAt`) as ISO text. */
const keptOf = (event: AcquirerEvent) => JSON.stringify(event);

function eventOf(kept: unknown): AcquirerEvent {
  const event = (typeof kept === 'string' ? JSON.parse(kept) : kept) as AcquirerEvent;
  if (event.kind === 'dispute' && event.occurredAt) return { ...event, occurredAt: new Date(event.occurredAt) };
  return event;
}

export function sqlSimulatedEvents(run: RunSql): SimulatedEventStore {
  return asInbox({
    async schedule({ key, paymentId, event, delayMs }) {
      await run(
        `insert into "simulated_acquirer_events" ("key", "payment_id", "event", "due_at") values (?, ?, ?::jsonb, now() + make_interval(secs => ?::double precision))
          on conflict ("key") do nothing`,
        [key, paymentId, keptOf(event), delayMs / 1000],
      );
    },
    async claimDue(limit, leaseMs) {
      const rows = await run(
        `update "simulated_acquirer_events" set "due_at" = now() + make_interval(secs => ?::double precision), "attempts" = "attempts" + 1
          where "id" in (select "id" from "simulated_acquirer_events" where "told_at" is null and "due_at" <= now()
                         order by "due_at", "id" limit ? for update skip locked)
          returning "id", "attempts", "event"`,
        [leaseMs / 1000, limit],
      );
      return rows.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => entryOf(String(row.id), Number(row.attempts), eventOf(row.event)));
    },
    async told(id, effect) {
      await run(`update "simulated_acquirer_events" set "told_at" = now(), "effect" = ? where "id" = ?`, [effect, id]);
    },
    async retryLater(id, delayMs) {
      await run(`update "simulated_acquirer_events" set "due_at" = now() + make_interval(secs => ?::double precision) where "id" = ? and "told_at" is null`, [delayMs / 1000, id]);
    },
    async cancel(paymentId) {
      await run(`delete from "simulated_acquirer_events" where "payment_id" = ? and "told_at" is null`, [paymentId]);
    },
  });
}

/** Lost with the process: for unit tests. */
export function memorySimulatedEvents(): SimulatedEventStore & { readonly kept: Map<string, ScheduledEvent & { id: string; dueAt: number; attempts: number; told: string | null }> } {
  const kept = new Map<string, ScheduledEvent & { id: string; dueAt: number; attempts: number; told: string | null }>();
  let next = 0;
  const byId = (id: string) => [...kept.values()].find((event) => event.id === id);
  return asInbox({
    kept,
    async schedule(event) {
      if (!kept.has(event.key)) kept.set(event.key, { ...event, event: eventOf(keptOf(event.event)), id: String(++next), dueAt: Date.now() + event.delayMs, attempts: 0, told: null });
    },
    async claimDue(limit, leaseMs) {
      const due = [...kept.values()].filter((e) => e.told === null && e.dueAt <= Date.now()).sort((a, b) => a.dueAt - b.dueAt || Number(a.id) - Number(b.id)).slice(0, limit);
      return due.map((e) => {
        e.dueAt = Date.now() + leaseMs;
        e.attempts += 1;
        return entryOf(e.id, e.attempts, e.event);
      });
    },
    async told(id, effect) {
      const event = byId(id);
      if (event) event.told = effect;
    },
    async retryLater(id, delayMs) {
      const event = byId(id);
      if (event && event.told === null) event.dueAt = Date.now() + delayMs;
    },
    async cancel(paymentId) {
      for (const [key, event] of kept) if (event.paymentId === paymentId && event.told === null) kept.delete(key);
    },
  });
}
