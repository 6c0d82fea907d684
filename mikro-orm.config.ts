import { defineConfig, type Options } from '@mikro-orm/postgresql';
import { Admin } from './src/modules/admins/admin.entity';
import { AdminToken } from './src/modules/admins/admin-token.entity';
import { EmailVerification, SellerSession } from './src/modules/identity/seller-session.entity';
import { AuditEntry } from './src/modules/audit/audit-entry.entity';
import { LedgerEntry } from './src/modules/ledger/ledger-entry.entity';
import { IdempotencyRecord } from './src/modules/payments/idempotency-record.entity';
import { Payment } from './src/modules/payments/payment.entity';
import { Refund } from './src/modules/refunds/refund.entity';
import { ApiKey } from './src/modules/identity/api-key.entity';
import { Seller } from './src/modules/identity/seller.entity';
import { Shop } from './src/modules/identity/shop.entity';
import { WebhookAttempt } from './src/modules/webhooks/webhook-attempt.entity';
import { WebhookDelivery } from './src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from './src/modules/webhooks/webhook-event.entity';
import { Withdrawal } from './src/modules/withdrawals/withdrawal.entity';
import { Dispute } from './src/modules/disputes/dispute.entity';
import { MailOutboxEntry } from './src/modules/notifications/mail-outbox.entity';
import { SettlementProposal } from './src/modules/checkout/settlement-proposal.entity';

export const ENTITIES = [Seller, Shop, ApiKey, Admin, AdminToken, Payment, IdempotencyRecord, LedgerEntry, WebhookEvent, WebhookDelivery, WebhookAttempt, Refund, Withdrawal, AuditEntry, SellerSession, EmailVerification, Dispute, MailOutboxEntry, SettlementProposal];

/** How long the client waits for any answer from PostgreSQL (0: for ever), so a request never hangs on a silent server. */
export const READ_TIMEOUT_MS = 15_000;

/**
 * The ORM settings for one PostgreSQL database; every entity is listed, none discovered from disk (the migrations
 * are listed in src/platform/db/migrations and given to the migrator when it is needed: migratorOf in database.ts).
 * `statementTimeoutMs` (0: none) makes PostgreSQL cancel any statement running longer, so one caller's heavy
 * query cannot hold a connection and the server's work for long (sent at connect, as `statement_timeout`).
 */
export function ormConfig(clientUrl: string, poolSize = 10, statementTimeoutMs = 0, readTimeoutMs = READ_TIMEOUT_MS): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    forceUtcTimezone: true,
    discovery: { disableDynamicFileAccess: true },
    // Bounded waits: while PostgreSQL is down a request fails within seconds (503), it never hangs.
    pool: { min: 0, max: poolSize, acquireTimeoutMillis: 5000 },
    driverOptions: { connection: { connectionTimeoutMillis: 3000, query_timeout: readTimeoutMs || undefined, statement_timeout: statementTimeoutMs || undefined } },
    migrations: { transactional: true, allOrNothing: true, snapshot: false, silent: true },
    allowGlobalContext: false,
    debug: false,
  });
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/payments');
