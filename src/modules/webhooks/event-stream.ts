import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { latestSettledEvent, settledEventsAfter, streamPlaceOf, type StreamedEventRow, type StreamPlace } from './event-stream-store';

/**
 * A shop's events in the order they were written, for a developer's machine (`npm run seller -- listen`, the REST
 * facade's event stream, docs/decisions/0022-event-stream.md): every event the outbox writes for the shop, whatever
 * the shop chose for its webhook URL, test events included. A page starts after an event the caller was given (its id),
 * or before the shop's first event (`0`); without either it answers no event and where "now" is.
 */
export const STREAM_FROM_FIRST = '0';
export const EVENT_STREAM_PAGE_MAX = 100;
const EVENT_ID = /^evt_[0-9A-Za-z]{24}$/;

export interface EventStreamPage {
  /** The id to continue after: the last event answered, else the one asked after (or where "now" is). */
  cursor: string;
  events: StreamedEventRow[];
}

export async function eventStreamPage(em: EntityManager, shopId: string, after: string | null | undefined, limit: number | null | undefined): Promise<EventStreamPage> {
  const size = limit ?? EVENT_STREAM_PAGE_MAX;
  if (!Number.isSafeInteger(size) || size < 1 || size > EVENT_STREAM_PAGE_MAX) throw domainError('LIMIT_INVALID');
  if (after === null || after === undefined) return { cursor: (await latestSettledEvent(em, shopId))?.id ?? STREAM_FROM_FIRST, events: [] };
  let place: StreamPlace | null = null;
  if (after !== STREAM_FROM_FIRST) {
    // Another shop's event is as unknown as one that never was: nothing says it exists.
    place = EVENT_ID.test(after) ? await streamPlaceOf(em, shopId, after) : null;
    if (!place) throw domainError('EVENT_STREAM_CURSOR_INVALID');
  }
  const events = await settledEventsAfter(em, shopId, place, size);
  return { cursor: events.length > 0 ? events[events.length - 1].id : after, events };
}
