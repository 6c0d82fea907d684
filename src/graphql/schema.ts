import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from '../accounts/account.resolver';
import { AdminAccountResolver } from '../accounts/admin-account.resolver';
import { AdminResolver } from '../admins/admin.resolver';
import { AuditResolver } from '../audit/audit.resolver';
import { CheckoutResolver } from '../checkout/checkout.resolver';
import { BalanceResolver, LedgerEntryResolver } from '../ledger/balance.resolver';
import { PaymentAdminResolver } from '../payments/payment-admin.resolver';
import { PaymentResolver } from '../payments/payment.resolver';
import { RefundResolver } from '../refunds/refund.resolver';
import { SellerAdminResolver, ShopAdminResolver } from '../shops/shop-admin.resolver';
import { SellerShopResolver } from '../shops/seller-shop.resolver';
import { ShopResolver } from '../shops/shop.resolver';
import { WebhookResolver } from '../webhooks/webhook.resolver';
import { PayoutAccountNumberResolver, PayoutAccountResolver } from '../withdrawals/payout-account.resolver';
import { NotificationsResolver } from '../notifications/notifications.resolver';
import { WithdrawalResolver } from '../withdrawals/withdrawal.resolver';
import { authChecker } from './auth-checker';
import { rootQueryFieldsInTurn } from './concurrency-guards';
import { AcquirerNotificationResolver } from '../checkout/acquirer-notification.resolver';
import { WorkQueueResolver } from '../admins/work-queue.resolver';
import { DisputeAdminResolver } from '../disputes/dispute-admin.resolver';
import { PaymentHistoryResolver } from '../payments/payment-history.resolver';
import { BalanceLinesResolver, BalanceStatementResolver } from '../ledger/balance-lines.resolver';
import { DisputeFieldsResolver, SellerDisputesResolver } from '../disputes/seller-disputes.resolver';
import { LiveTestResolver } from '../payments/live-test.resolver';

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
