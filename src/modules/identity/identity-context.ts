import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { CookieMode } from '../../platform/http/session-cookies';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import type { Logger } from '../../shared/logger';
import type { Admin } from '../admins';
import type { BalanceSummary } from '../ledger';
import type { AccountMailQueue } from './account-mails';
import type { AccountStatus, PaymentMaximums } from './account-status';
import type { NewSignInNotice, SignUpMode } from './accounts.service';
import type { CredentialCache } from './credential-cache';
import type { SecretBox } from './secret-box';
import type { Seller } from './seller.entity';
import type { SessionRules } from './session-standing';
import type { SessionSettings } from './sessions';
import type { Shop } from './shop.entity';

/**
 * Dashboard and admin accounts: SELLER_SIGNUP, the session timeouts (admins' too), the account mails' way out, and
 * ACCOUNT_ATTEMPTS_PER_CLIENT (sign-ins, sign-ups, resets per client address), ACCOUNT_SECRETS_KEY's box.
 */
export interface AccountServices {
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
}

/** What the identity module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface IdentityContext extends RequestScope<Caller<Admin, Shop, AccountStatus>> {
  services: {
    logger: Logger;
    accounts: AccountServices;
    /** Call `credentials.invalidateShop(shopId)` after any change to a shop, its seller or its keys. */
    credentials: CredentialCache;
    /** Checks a webhook URL under the webhooks' policy (webhooks' own, which identity does not import). */
    webhooks: { checkUrl(url: string): Promise<string> };
    paymentMaximums: PaymentMaximums;
  };
  loaders: {
    seller: DataLoader<string, Seller | null>;
    liveShopOfSeller: DataLoader<string, Shop | null>;
    balanceOfSeller: DataLoader<string, BalanceSummary>;
  };
}
