import { Migration } from '@mikro-orm/migrations';

/**
 * The event stream (docs/decisions/0022-event-stream.md): each event's writing transaction (`stream_xid`) and its place
 * in the writing order (`stream_position`), which a stream reads in order once every transaction begun before it has
 * ended. Events written before this have neither and are never streamed: adding the columns without a default for them
 * keeps this migration from rewriting the table.
 */
export class Migration20261209010000_event_stream extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events" add column "stream_xid" xid8 null, add column "stream_position" bigint null`);
    this.addSql(`create sequence "webhook_events_stream_position_seq" owned by "webhook_events"."stream_position"`);
    this.addSql(`alter table "webhook_events" alter column "stream_xid" set default pg_current_xact_id(),
      alter column "stream_position" set default nextval('webhook_events_stream_position_seq')`);
    this.addSql(`create index "webhook_events_stream_idx" on "webhook_events" ("shop_id", "stream_xid", "stream_position") where "stream_xid" is not null`);
  }
}
