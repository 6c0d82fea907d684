import type { EntityManager } from '@mikro-orm/postgresql';

// The event stream's SQL over `webhook_events` (docs/decisions/0022-event-stream.md). Events are read in the order of
// (writing transaction, place in the writing order), and only those written by transactions older than every one still
// running (`pg_snapshot_xmin`): a later read can then never find an event before one already read, whatever order the
// transactions commit in.

/** An event's place in the stream. */
export interface StreamPlace {
  xid: string;
  position: string;
}

export interface StreamedEventRow extends StreamPlace {
  id: string;
  type: string;
  body: string;
  test: boolean;
  createdAt: Date;
}

/** Events every transaction before which has ended, and written since the stream columns exist. */
const SETTLED = `e."stream_xid" is not null and e."stream_xid" < pg_snapshot_xmin(pg_current_snapshot())`;

/** The shop's latest settled event: where a stream that names no event starts. */
export async function latestSettledEvent(em: EntityManager, shopId: string): Promise<{ id: string } | null> {
  const [row] = await em.execute<{ id: string }[]>(
    `select e."id" from "webhook_events" e where e."shop_id" = ? and ${SETTLED}
      order by e."stream_xid" desc, e."stream_position" desc limit 1`,
    [shopId],
  );
  return row ?? null;
}

/** The place of one of the shop's events; null when the shop has no such event (or it predates the stream). */
export async function streamPlaceOf(em: EntityManager, shopId: string, eventId: string): Promise<StreamPlace | null> {
  const [row] = await em.execute<{ xid: string; position: string }[]>(
    `select e."stream_xid"::text as xid, e."stream_position"::text as position from "webhook_events" e
      where e."shop_id" = ? and e."id" = ? and e."stream_xid" is not null`,
    [shopId, eventId],
  );
  return row ?? null;
}

/** Up to `limit` of the shop's settled events after `after` (null: from its first), in stream order. */
export async function settledEventsAfter(em: EntityManager, shopId: string, after: StreamPlace | null, limit: number): Promise<StreamedEventRow[]> {
  const rows = await em.execute<{ id: string; type: string; body: string; test: boolean; created_at: Date | string; xid: string; position: string }[]>(
    `select e."id", e."type", e."body", e."test", e."created_at", e."stream_xid"::text as xid, e."stream_position"::text as position
       from "webhook_events" e
      where e."shop_id" = ? and ${SETTLED}
        ${after ? 'and (e."stream_xid", e."stream_position") > (?::xid8, ?::bigint)' : ''}
      order by e."stream_xid", e."stream_position" limit ?`,
    after ? [shopId, after.xid, after.position, limit] : [shopId, limit],
  );
  return rows.map((row) => ({ id: row.id, type: row.type, body: row.body, test: row.test, createdAt: new Date(row.created_at), xid: row.xid, position: row.position }));
}
