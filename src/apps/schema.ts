import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver, AdminAccountResolver, SellerAdminResolver, SellerPreviousShopResolver, ShopAdminResolver, SellerShopResolver, ShopResolver } from '../modules/identity/web';
import { AdminResolver } from '../modules/admins/web';
import { AuditResolver } from '../modules/audit/web';
import { CheckoutResolver, AcquirerNotificationResolver, SettlementProposalResolver } from '../modules/checkout/web';
import { BalanceResolver, LedgerEntryResolver, BalanceLinesResolver, BalanceStatementResolver } from '../modules/ledger/web';
import { PaymentResolver, PaymentHistoryResolver, LiveTestResolver } from '../modules/payments/web';
import { PaymentRefundsResolver, RefundResolver } from '../modules/refunds/web';
// The resolver's file, not webhooks' index: loaded through the index, it would be decorated while identity's index,
// whose argument options it reads, is still loading (identity reaches webhooks' index on its way).
import { WebhookResolver } from '../modules/webhooks/webhook.resolver';
import { EventStreamResolver } from '../modules/webhooks/event-stream.resolver';
import { RequestLogResolver } from '../modules/request-log/web';
import { PayoutAccountNumberResolver, PayoutAccountResolver, WithdrawalResolver } from '../modules/withdrawals/web';
import { NotificationsResolver } from '../modules/notifications/web';
import { authChecker } from '../api/graphql/auth-checker';
import { rootQueryFieldsInTurn } from '../api/graphql/concurrency-guards';
import { PaymentAdminResolver, WorkQueueResolver } from '../modules/back-office/web';
import { DisputeAdminResolver, DisputeFieldsResolver, SellerDisputesResolver } from '../modules/disputes/web';

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
  SettlementProposalResolver,
  // the back office (docs/admin.md)
  WorkQueueResolver,
  DisputeAdminResolver,
  // the seller dashboard (docs/dashboard.md)
  AccountResolver,
  SellerShopResolver,
  SellerPreviousShopResolver,
  PayoutAccountResolver,
  PayoutAccountNumberResolver,
  AdminAccountResolver,
  // receipts and notifications (docs/dashboard.md, docs/admin.md)
  NotificationsResolver,
  // the dashboard's history, balance transactions, statements and disputes (docs/dashboard.md)
  PaymentHistoryResolver,
  PaymentRefundsResolver,
  BalanceLinesResolver,
  BalanceStatementResolver,
  SellerDisputesResolver,
  DisputeFieldsResolver,
  // live tests from the dashboard's Developers screen (docs/dashboard.md)
  LiveTestResolver,
  // a developer's machine: the event stream, triggered test events, the request log (docs/integrate.md, docs/dashboard.md)
  EventStreamResolver,
  RequestLogResolver,
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
