import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261123000000_initial } from './Migration20261123000000_initial';
import { Migration20261123010000_checkout_ledger_outbox } from './Migration20261123010000_checkout_ledger_outbox';
import { Migration20261123020000_webhook_deliveries } from './Migration20261123020000_webhook_deliveries';
import { Migration20261124000000_admin_console } from './Migration20261124000000_admin_console';
import { Migration20261125000000_admin_roles } from './Migration20261125000000_admin_roles';
import { Migration20261126000000_reconciliation } from './Migration20261126000000_reconciliation';
import { Migration20261126000000_seller_account_status } from './Migration20261126000000_seller_account_status';
import { Migration20261126010000_webhook_event_choice } from './Migration20261126010000_webhook_event_choice';
import { Migration20261126120000_seller_accounts } from './Migration20261126120000_seller_accounts';
import { Migration20261127000000_withdrawal_events } from './Migration20261127000000_withdrawal_events';
import { Migration20261127010000_payment_expiry } from './Migration20261127010000_payment_expiry';
import { Migration20261127020000_lifecycle_checks } from './Migration20261127020000_lifecycle_checks';
import { Migration20261127050000_adyen } from './Migration20261127050000_adyen';
import { Migration20261127090000_seller_refund_requests } from './Migration20261127090000_seller_refund_requests';
import { Migration20261127090100_payout_accounts } from './Migration20261127090100_payout_accounts';
import { Migration20261127120000_account_security } from './Migration20261127120000_account_security';
import { Migration20261127160000_ledger_checkpoints } from './Migration20261127160000_ledger_checkpoints';
import { Migration20261128000000_disputes_and_notification_inbox } from './Migration20261128000000_disputes_and_notification_inbox';
import { Migration20261128003000_three_ds_return_token } from './Migration20261128003000_three_ds_return_token';

/** Every migration, in order. Listed explicitly so the same list runs from src/ and from dist/. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261123000000_initial', class: Migration20261123000000_initial },
  { name: 'Migration20261123010000_checkout_ledger_outbox', class: Migration20261123010000_checkout_ledger_outbox },
  { name: 'Migration20261123020000_webhook_deliveries', class: Migration20261123020000_webhook_deliveries },
  { name: 'Migration20261124000000_admin_console', class: Migration20261124000000_admin_console },
  { name: 'Migration20261125000000_admin_roles', class: Migration20261125000000_admin_roles },
  { name: 'Migration20261126000000_reconciliation', class: Migration20261126000000_reconciliation },
  { name: 'Migration20261126000000_seller_account_status', class: Migration20261126000000_seller_account_status },
  { name: 'Migration20261126010000_webhook_event_choice', class: Migration20261126010000_webhook_event_choice },
  { name: 'Migration20261126120000_seller_accounts', class: Migration20261126120000_seller_accounts },
  { name: 'Migration20261127000000_withdrawal_events', class: Migration20261127000000_withdrawal_events },
  { name: 'Migration20261127010000_payment_expiry', class: Migration20261127010000_payment_expiry },
  { name: 'Migration20261127020000_lifecycle_checks', class: Migration20261127020000_lifecycle_checks },
  { name: 'Migration20261127050000_adyen', class: Migration20261127050000_adyen },
  { name: 'Migration20261127090000_seller_refund_requests', class: Migration20261127090000_seller_refund_requests },
  { name: 'Migration20261127090100_payout_accounts', class: Migration20261127090100_payout_accounts },
  { name: 'Migration20261127120000_account_security', class: Migration20261127120000_account_security },
  { name: 'Migration20261127160000_ledger_checkpoints', class: Migration20261127160000_ledger_checkpoints },
  { name: 'Migration20261128000000_disputes_and_notification_inbox', class: Migration20261128000000_disputes_and_notification_inbox },
  { name: 'Migration20261128003000_three_ds_return_token', class: Migration20261128003000_three_ds_return_token },
];
