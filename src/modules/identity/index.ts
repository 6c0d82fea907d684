// Files that load no other module come first: a cycle back into this index finds them loaded
export { Seller } from './seller.entity';
export { Shop } from './shop.entity';
export { ACCOUNT_MAIL_KINDS } from './account-mails';
export { exceedsPaymentMaximum, paymentMaximumFor } from './account-status';
export { apiKeyFromHeader, credentialForKeyHash } from './api-key-auth';
export { newWebhookSecret } from './api-keys';
export { sellerAccountStatus } from './caller-status';
export { createCredentialCache } from './credential-cache';
export { createDemoShopIfEmpty, demoShopNotice } from './demo-shop';
export { lockedStandingOfPaymentShop, standingOf, TAKES_PAYMENTS_SQL, takesPayments } from './payment-standing';
export { reencryptSecrets } from './reencrypt-secrets';
export { createSecretBox, isSealed } from './secret-box';
export { SESSION_RULES } from './session-standing';
export { csrfTokenFor, endAllSessions, liveAdminSession, liveSession } from './sessions';
export { createSellerWithShop } from './shop-provisioning';
export { shopReceives, validWebhookEvents } from './webhook-event-choice';

// Files that load other modules
export { inviteSeller, inviteSellerByEmail } from './accounts.service';
export { adminSetupLink } from './admin-accounts';
export { AccountResolver, CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, reauthenticated } from './account.resolver';
export { AdminAccountResolver } from './admin-account.resolver';
export { SellerPreviousShopResolver, SellerShopResolver } from './seller-shop.resolver';
export { SellerAdminResolver, ShopAdminResolver } from './shop-admin.resolver';
export { ShopResolver } from './shop.resolver';

// Types
export type { AccountServices, IdentityContext } from './identity-context';
export type { AccountMail, AccountMailKind, AccountMailQueue } from './account-mails';
export type { AccountStatus, PaymentMaximums } from './account-status';
export type { NewSignInNotice, SignUpMode } from './accounts.service';
export type { CachedCredential, CredentialCache } from './credential-cache';
export type { ShopStanding } from './payment-standing';
export type { SecretBox } from './secret-box';
export type { SellerStatus } from './seller.entity';
export type { SessionChangeRefusal, SessionRules } from './session-standing';
export type { LiveSession, SessionSettings } from './sessions';
export type { ShopStatus } from './shop.entity';
export type { WebhookEventType } from './webhook-event-choice';
