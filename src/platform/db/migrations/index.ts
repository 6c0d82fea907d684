import path from 'node:path';
import type { MigrationObject } from '@mikro-orm/core';

/**
 * Every migration, in timestamp order: the file of each name exports a class of that name. Each is frozen history,
 * its SQL written out and importing nothing but MikroORM (test/unit/migrations-list.test.ts).
 */
export const MIGRATION_NAMES: readonly string[] = [
  'Migration20261123000000_initial',
  'Migration20261123010000_checkout_ledger_outbox',
  'Migration20261123020000_webhook_deliveries',
  'Migration20261124000000_admin_console',
  'Migration20261125000000_admin_roles',
  'Migration20261126000000_reconciliation',
  'Migration20261126000000_seller_account_status',
  'Migration20261126010000_webhook_event_choice',
  'Migration20261126120000_seller_accounts',
  'Migration20261127000000_withdrawal_events',
  'Migration20261127010000_payment_expiry',
  'Migration20261127020000_lifecycle_checks',
  'Migration20261127050000_adyen',
  'Migration20261127090000_seller_refund_requests',
  'Migration20261127090100_payout_accounts',
  'Migration20261127120000_account_security',
  'Migration20261127160000_ledger_checkpoints',
  'Migration20261128000000_disputes_and_notification_inbox',
  'Migration20261128003000_three_ds_return_token',
  'Migration20261129000000_session_standing_and_known_devices',
  'Migration20261129010000_own_admin_credentials',
  'Migration20261129020000_seller_secrets_and_emails',
  'Migration20261129030000_mail_outbox',
  'Migration20261129040000_partial_refunds',
  'Migration20261130000000_trace_context',
  'Migration20261130010000_seller_balance_history',
  'Migration20261130020000_back_office',
  'Migration20261201010000_refund_tracking',
  'Migration20261201030000_live_tests',
  'Migration20261202000000_admin_emails',
  'Migration20261203000000_lookup_indexes',
  'Migration20261204000000_acquirer_facts',
  'Migration20261204010000_notification_dismissal',
  'Migration20261205000000_payment_language',
  'Migration20261206000000_settlement_proposals',
  'Migration20261207000000_mail_recipient_cap',
  'Migration20261208100000_simulated_acquirer_events',
  'Migration20261209000000_request_log',
  'Migration20261209010000_event_stream',
  'Migration20261210000000_seller_reclaimed_at',
  'Migration20261210050000_account_mails_in_outbox',
];

/**
 * The migrations themselves. Loading them loads MikroORM's migrator (about a third of the service's start-up
 * module loading), so the service does it only when a migration is pending (database.ts). Required by name
 * from this folder, with the extension of the code running (.ts in the tests, .js built): the CLI's bundle
 * (scripts/bundle-cli.mjs) holds this folder's files under their whole names.
 */
export function loadMigrations(): MigrationObject[] {
  const extension = path.extname(__filename);
  return MIGRATION_NAMES.map((name) => ({ name, class: require(`./${name}${extension}`)[name] }));
}
