import { Migration } from '@mikro-orm/migrations';

/**
 * The status check constraints and defaults of the lifecycle tables (src/modules/lifecycles.ts) that existed then,
 * so the database refuses any state the tables do not hold. Tables added later get theirs from the migration that
 * adds them; a change to a table's states gets a new migration. test/integration/platform/lifecycle-checks.test.ts fails
 * until the database's constraints equal the tables.
 */
export class Migration20261127020000_lifecycle_checks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check", add constraint "payments_status_check" check ("status" in ('pending', 'completed', 'failed', 'refunded'))`);
    this.addSql(`alter table "payments" drop constraint if exists "payments_checkout_stage_check", add constraint "payments_checkout_stage_check" check ("checkout_stage" in ('card_required', 'processing', 'authentication_required', 'finished'))`);
    this.addSql(`alter table "payments" alter column "status" set default 'pending'`);
    this.addSql(`alter table "payments" alter column "checkout_stage" set default 'card_required'`);
    this.addSql(`alter table "refunds" drop constraint if exists "refunds_status_check", add constraint "refunds_status_check" check ("status" in ('requested', 'approved', 'rejected', 'processing', 'refunded', 'reversed', 'failed'))`);
    this.addSql(`alter table "refunds" alter column "status" set default 'requested'`);
    this.addSql(`alter table "withdrawals" drop constraint if exists "withdrawals_status_check", add constraint "withdrawals_status_check" check ("status" in ('requested', 'approved', 'rejected', 'paid'))`);
    this.addSql(`alter table "withdrawals" alter column "status" set default 'requested'`);
    this.addSql(`alter table "webhook_deliveries" drop constraint if exists "webhook_deliveries_status_check", add constraint "webhook_deliveries_status_check" check ("status" in ('pending', 'delivered', 'failed'))`);
    this.addSql(`alter table "webhook_deliveries" alter column "status" set default 'pending'`);
  }
}
