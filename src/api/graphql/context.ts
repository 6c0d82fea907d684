import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Actor } from '../http/actor';
import type { SignUpMode, SessionSettings, PaymentMaximums, CredentialCache, SecretBox, SessionRules, NewSignInNotice, AccountMailQueue } from '../../modules/identity';
import { sessionCookies, type CookieMode, type SessionCookies } from '../../platform/http/session-cookies';
import { clientAddress, locals } from '../../platform/http/request-context';
import { deviceTokenOf, setDeviceCookie } from '../../platform/http/device-cookie';
import type { CheckoutDeps, ReconciliationJobs, AcquirerInbox } from '../../modules/checkout';
import type { Metrics } from '../../platform/observability/metrics';
import type { Logger } from '../../shared/logger';
import { createLoaders, type Loaders } from '../../modules/loaders';
import type { RefundJobs } from '../../modules/refunds';
import type { WebhookServices } from '../../modules/webhooks';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import type { NotificationStore } from '../../platform/processor/adyen/notification-store';
import type { SimulatedChargeback } from '../../platform/processor/simulated-acquirer';
import type { MailRuntime } from '../../modules/notifications';

/** The admin roles as `@Authorized` names them (docs/admin.md). */
export type AdminDuty = 'SUPPORT' | 'FINANCE' | 'OWNER';
/** `ADMIN`: any admin, whatever the role (the reads). */
/** SESSION: a dashboard session only (it also holds SELLER); for what an API key must not do or read. */
export type Role = 'SELLER' | 'SESSION' | 'ADMIN' | AdminDuty;

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
  /** Adyen's notifications: the inbox they are accepted into, and the job that applies them (null without Adyen). */
  acquirerNotifications: { store: NotificationStore; inbox: AcquirerInbox } | null;
  /**
   * The simulated acquirer's own events (null with a real acquirer): `drain` tells those due now (a dispute, a refund
   * failure), `reverseChargeback` has its issuer reverse a chargeback and tells it at once (the back office's button).
   */
  simulator: { drain(): Promise<number>; reverseChargeback(chargeback: SimulatedChargeback): Promise<void> } | null;
  /** The mail outbox's workers and sweep (src/modules/notifications/): `wake` after a mail is re-sent. */
  mail: MailRuntime;
  /** ADMIN_TOKEN_TTL_DAYS: how long a newly issued admin token is accepted. */
  adminTokenTtlDays: number;
  /** PAYMENT_MAX_CENTS_*: the largest payment per seller account status (null = none). */
  paymentMaximums: PaymentMaximums;
  /**
   * Dashboard and admin accounts: SELLER_SIGNUP, the session timeouts (admins' too), the account mails' way out, and
   * ACCOUNT_ATTEMPTS_PER_CLIENT (sign-ins, sign-ups, resets per client address), ACCOUNT_SECRETS_KEY's box.
   */
  accounts: {
    signup: SignUpMode;
    sessions: SessionSettings;
    /** Puts an account mail in the mail outbox, sealed with `secrets` (notifications' queueAccountMail, which identity does not import). */
    queueMail: AccountMailQueue;
    attemptsPerClient: RateLimiter;
    secrets: SecretBox;
    /** SESSION_COOKIES_INSECURE: the session cookies' names and flags. */
    cookies: CookieMode;
    /** PASSWORD_RESET_MAILS_PER_HOUR: reset mails per e-mail address, whoever asks (keyed by the address's hash). */
    resetMailsPerAddress: RateLimiter;
    /** Identity's rules for a session, which the auth checker applies (src/modules/identity/session-standing.ts). */
    sessionRules: SessionRules;
    /** Tells the seller of a sign-in from a new browser: notifications' notice, which identity does not import. */
    noticeNewSignIn: NewSignInNotice;
  };
}

/** One per request: its own unit of work (a forked EntityManager), its caller and its id. */
export interface GraphQLContext {
  em: EntityManager;
  actor: Actor;
  /** The budget a seller's requests count against (its API key's hash); null for admins and the public. */
  rateLimitKey: string | null;
  requestId: string;
  clientAddress: string;
  /** The caller's User-Agent and Accept headers (3-D Secure's browser data; never stored). */
  browserHeaders: { userAgent: string; accept: string; acceptLanguage: string };
  baseUrl: string;
  services: AppServices;
  /** This request's DataLoaders (created on first use, so REST calls that never walk relations pay nothing). */
  loaders: Loaders;
  /** Sets or clears the dashboard session cookies on this request's answer. */
  sessionCookies: SessionCookies;
  /** The same for the admin console's session cookies. */
  adminSessionCookies: SessionCookies;
  /** The User-Agent header (kept with a new session, for "active sessions"). */
  userAgent: string | null;
  /** This browser's known-device cookie (src/platform/http/device-cookie.ts): the token it sent, and setting a new one. */
  knownDevice: { token: string | null; remember(token: string): void };
  /** Tells the request log what the answer's first error says (/graphql only: the REST envelope tells it itself). */
  noteAnswerError?(code: string, message: string): void;
}

/**
 * The GraphQL context of this request, the same whether Apollo or the REST facade runs the operation.
 * What most operations never read (the client address, browser headers, cookie setters) is worked out on
 * first read: a seller's retrieve is the hot path (docs/decisions/0012-hot-paths.md).
 */
export function graphqlContextOf(req: Request, res: Response, services: AppServices): GraphQLContext {
  const context = locals(res);
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
