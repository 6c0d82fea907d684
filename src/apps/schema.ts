import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from '../modules/identity/account.resolver';
import { AdminAccountResolver } from '../modules/identity/admin-account.resolver';
import { AdminResolver } from '../modules/admins/admin.resolver';
import { AuditResolver } from '../modules/audit/audit.resolver';
import { CheckoutResolver } from '../modules/checkout/checkout.resolver';
import { BalanceResolver, LedgerEntryResolver } from '../modules/ledger/balance.resolver';
import { PaymentAdminResolver } from '../modules/payments/payment-admin.resolver';
import { PaymentResolver } from '../modules/payments/payment.resolver';
import { RefundResolver } from '../modules/refunds/refund.resolver';
import { SellerAdminResolver, ShopAdminResolver } from '../modules/identity/shop-admin.resolver';
import { SellerShopResolver } from '../modules/identity/seller-shop.resolver';
import { ShopResolver } from '../modules/identity/shop.resolver';
import { WebhookResolver } from '../modules/webhooks/webhook.resolver';
import { PayoutAccountNumberResolver, PayoutAccountResolver } from '../modules/withdrawals/payout-account.resolver';
import { NotificationsResolver } from '../modules/notifications/notifications.resolver';
import { WithdrawalResolver } from '../modules/withdrawals/withdrawal.resolver';
import { authChecker } from '../platform/graphql/auth-checker';
import { rootQueryFieldsInTurn } from '../platform/graphql/concurrency-guards';
import { AcquirerNotificationResolver } from '../modules/checkout/acquirer-notification.resolver';
import { WorkQueueResolver } from '../modules/back-office/work-queue.resolver';
import { DisputeAdminResolver } from '../modules/disputes/dispute-admin.resolver';
import { PaymentHistoryResolver } from '../modules/payments/payment-history.resolver';
import { BalanceLinesResolver, BalanceStatementResolver } from '../modules/ledger/balance-lines.resolver';
import { DisputeFieldsResolver, SellerDisputesResolver } from '../modules/disputes/seller-disputes.resolver';
import { LiveTestResolver } from '../modules/payments/live-test.resolver';

export const RESOLVERS = [
  PaymentResolver,
  ShopResolver,
  CheckoutResolver,
  WebhookResolver,
  // the admin console (docs/admin.md)
  PaymentAdminResolver,
  RefundResolver,
  WithdrawalResolver,
  BalanceResolver,
  LedgerEntryResolver,
  ShopAdminResolver,
  SellerAdminResolver,
  AuditResolver,
  AdminResolver,
  AcquirerNotificationResolver,
  // the back office (docs/admin.md)
  WorkQueueResolver,
  DisputeAdminResolver,
  // the seller dashboard (docs/dashboard.md)
  AccountResolver,
  SellerShopResolver,
  PayoutAccountResolver,
  PayoutAccountNumberResolver,
  AdminAccountResolver,
  // receipts and notifications (docs/dashboard.md, docs/admin.md)
  NotificationsResolver,
  // the dashboard's history, balance transactions, statements and disputes (docs/dashboard.md)
  PaymentHistoryResolver,
  BalanceLinesResolver,
  BalanceStatementResolver,
  SellerDisputesResolver,
  DisputeFieldsResolver,
  // live tests from the dashboard's Developers screen (docs/dashboard.md)
  LiveTestResolver,
] as const;

/** The one schema behind /graphql, the REST facade, the checkout page and the admin console. */
export async function buildAppSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({ resolvers: RESOLVERS, authChecker, validate: false });
  rootQueryFieldsInTurn(schema);
  return schema;
}

/** The SDL as committed in schema/schema.graphql (sorted, so diffs show only real changes). */
export function printAppSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
