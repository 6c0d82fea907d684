import type { Request, Response } from 'express';
import type { Actor } from '../http/actor';
import type { AdminsContext } from '../../modules/admins';
import type { AuditContext } from '../../modules/audit';
import type { BackOfficeContext } from '../../modules/back-office';
import type { AcquirerNotificationServices, CheckoutContext, CheckoutDeps, ReconciliationJobs } from '../../modules/checkout';
import type { DisputesContext } from '../../modules/disputes';
import type { AccountServices, CredentialCache, IdentityContext, PaymentMaximums } from '../../modules/identity';
import type { LedgerContext } from '../../modules/ledger';
import { createLoaders, type Loaders } from '../../modules/loaders';
import type { MailRuntime, NotificationsContext } from '../../modules/notifications';
import type { PaymentsContext } from '../../modules/payments';
import type { RefundJobs, RefundsContext } from '../../modules/refunds';
import type { RequestLogContext } from '../../modules/request-log';
import type { WebhookServices, WebhooksContext } from '../../modules/webhooks';
import type { WithdrawalsContext } from '../../modules/withdrawals';
import type { RequestScope } from '../../platform/graphql/request-scope';
import { sessionCookies } from '../../platform/http/session-cookies';
import { clientAddress, locals } from '../../platform/http/request-context';
import { deviceTokenOf, setDeviceCookie } from '../../platform/http/device-cookie';
import type { Metrics } from '../../platform/observability/metrics';
import type { SimulatorControls } from '../../platform/processor/acquirer-inbound';
import type { Logger } from '../../shared/logger';

/** What every request shares: built once at start. */
export interface AppServices {
  baseUrl: string;
  /** Business events (payment created, refund approved …) are logged at info with their ids. */
  logger: Logger;
  metrics: Metrics;
  checkout: CheckoutDeps;
  /** Call `credentials.invalidateShop(shopId)` after any change to a shop, its seller or its keys. */
  credentials: CredentialCache;
  webhooks: WebhookServices;
  /** Carries out approved refunds (a bull queue with Redis, in-process without; plus a periodic sweep). */
  refunds: RefundJobs;
  /** Settles payments and refunds whose acquirer answer was lost, by asking the acquirer (a leased sweep). */
  reconciliation: ReconciliationJobs;
  /** The acquirer's inbox (Adyen's notifications, the simulator's events) and the drain that applies them. */
  acquirerNotifications: AcquirerNotificationServices;
  /** The simulated acquirer's own events (null with a real acquirer). */
  simulator: SimulatorControls | null;
  /** The mail outbox's workers and sweep (src/modules/notifications/): `wake` after a mail is re-sent. */
  mail: MailRuntime;
  /** ADMIN_TOKEN_TTL_DAYS: how long a newly issued admin token is accepted. */
  adminTokenTtlDays: number;
  /** PAYMENT_MAX_CENTS_*: the largest payment per seller account status (null = none). */
  paymentMaximums: PaymentMaximums;
  accounts: AccountServices;
}

/**
 * One per request: the platform's request scope (its unit of work, caller and id) with every service and this
 * request's DataLoaders. Each module's resolvers take a narrow context of their own; this one satisfies them all
 * (checked below), so no module names it.
 */
export interface GraphQLContext extends RequestScope<Actor> {
  services: AppServices;
  /** This request's DataLoaders (created on first use, so REST calls that never walk relations pay nothing). */
  loaders: Loaders;
}

/** Every module's narrow context, which this one must satisfy: a module asking for more fails to compile here. */
type Satisfies<Concrete extends Narrow, Narrow> = Concrete;
export type ModuleContexts = [
  Satisfies<GraphQLContext, AdminsContext>,
  Satisfies<GraphQLContext, AuditContext>,
  Satisfies<GraphQLContext, BackOfficeContext>,
  Satisfies<GraphQLContext, CheckoutContext>,
  Satisfies<GraphQLContext, DisputesContext>,
  Satisfies<GraphQLContext, IdentityContext>,
  Satisfies<GraphQLContext, LedgerContext>,
  Satisfies<GraphQLContext, NotificationsContext>,
  Satisfies<GraphQLContext, PaymentsContext>,
  Satisfies<GraphQLContext, RefundsContext>,
  Satisfies<GraphQLContext, RequestLogContext>,
  Satisfies<GraphQLContext, WebhooksContext>,
  Satisfies<GraphQLContext, WithdrawalsContext>,
];

/**
 * The GraphQL context of this request, the same whether Apollo or the REST facade runs the operation.
 * What most operations never read (the client address, browser headers, cookie setters) is worked out on
 * first read: a seller's retrieve is the hot path (docs/decisions/0012-hot-paths.md).
 */
export function graphqlContextOf(req: Request, res: Response, services: AppServices): GraphQLContext {
  const context = locals<Actor>(res);
  const { actor, requestId } = context;
  const once = <T>(make: () => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const address = once(() => clientAddress(req));
  const browserHeaders = once(() => ({ userAgent: req.get('user-agent') ?? '', accept: req.get('accept') ?? '', acceptLanguage: req.get('accept-language') ?? '' }));
  const cookies = once(() => sessionCookies(res, services.accounts.cookies));
  const adminCookies = once(() => sessionCookies(res, services.accounts.cookies, 'admin'));
  const loaders = once(() => createLoaders(context.em));
  return {
    get em() {
      return context.em;
    },
    actor,
    rateLimitKey: context.rateLimitKey ?? null,
    requestId,
    get clientAddress() {
      return address();
    },
    get browserHeaders() {
      return browserHeaders();
    },
    baseUrl: services.baseUrl,
    services,
    get sessionCookies() {
      return cookies();
    },
    get adminSessionCookies() {
      return adminCookies();
    },
    get userAgent() {
      return req.get('user-agent') ?? null;
    },
    get knownDevice() {
      return { token: deviceTokenOf(req, services.accounts.cookies) ?? null, remember: (token: string) => setDeviceCookie(res, services.accounts.cookies, token) };
    },
    get loaders() {
      return loaders();
    },
    noteAnswerError(code, message) {
      context.answeredError ??= { code, message };
    },
  };
}
