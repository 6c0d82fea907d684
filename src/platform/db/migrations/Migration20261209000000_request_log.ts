import { Migration } from '@mikro-orm/migrations';

/**
 * The request log (src/modules/request-log/): one row per API request a seller's key made, kept 30 days. Written in
 * batches after the answers went out, so no foreign key: a row must never fail on its shop's fate. The first index
 * serves a shop's newest-first pages, the second the retention sweep.
 */
export class Migration20261209000000_request_log extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "api_requests" (
      "id" bigint generated always as identity primary key,
      "shop_id" text not null,
      "request_id" text not null,
      "source" text not null check ("source" in ('rest', 'graphql')),
      "method" text not null,
      "path" text not null,
      "operation_name" text null,
      "status" smallint not null,
      "error_code" text null,
      "error_message" text null,
      "idempotency_key" text null,
      "duration_ms" integer not null,
      "started_at" timestamptz not null)`);
    this.addSql(`create index "api_requests_shop_started_idx" on "api_requests" ("shop_id", "started_at" desc, "id" desc)`);
    this.addSql(`create index "api_requests_started_idx" on "api_requests" ("started_at")`);
  }
}
