import { Migration } from '@mikro-orm/migrations';

/**
 * With tracing on (docs/operations.md, "Tracing"), an outbox row keeps the W3C `traceparent` of the request or
 * job that wrote it, so its webhook delivery or mail, sent later and maybe by another process, joins that trace.
 * Null when tracing is off or nothing was traced.
 */
export class Migration20261130000000_trace_context extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events" add column "traceparent" text null`);
    this.addSql(`alter table "mail_outbox" add column "traceparent" text null`);
  }
}
