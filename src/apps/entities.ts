import { Admin } from '../modules/admins/admin.entity';
import { AdminToken } from '../modules/admins/admin-token.entity';
import { EmailVerification, SellerSession } from '../modules/identity/seller-session.entity';
import { AuditEntry } from '../modules/audit/audit-entry.entity';
import { LedgerEntry } from '../modules/ledger/ledger-entry.entity';
import { IdempotencyRecord } from '../modules/payments/idempotency-record.entity';
import { Payment } from '../modules/payments/payment.entity';
import { Refund } from '../modules/refunds/refund.entity';
import { ApiKey } from '../modules/identity/api-key.entity';
import { Seller } from '../modules/identity/seller.entity';
import { Shop } from '../modules/identity/shop.entity';
import { WebhookAttempt } from '../modules/webhooks/webhook-attempt.entity';
import { WebhookDelivery } from '../modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../modules/webhooks/webhook-event.entity';
import { Withdrawal } from '../modules/withdrawals/withdrawal.entity';
import { Dispute } from '../modules/disputes/dispute.entity';
import { MailOutboxEntry } from '../modules/notifications/mail-outbox.entity';
import { SettlementProposal } from '../modules/checkout/settlement-proposal.entity';

/** Every entity the ORM maps, handed to the database by the entry points (and to the MikroORM CLI by mikro-orm.config.ts). */
export const ENTITIES = [Seller, Shop, ApiKey, Admin, AdminToken, Payment, IdempotencyRecord, LedgerEntry, WebhookEvent, WebhookDelivery, WebhookAttempt, Refund, Withdrawal, AuditEntry, SellerSession, EmailVerification, Dispute, MailOutboxEntry, SettlementProposal];
