import { ACQUIRER_NOTIFICATION_LIFECYCLE } from '../platform/processor/adyen/acquirer-notification.lifecycle';
import { DISPUTE_LIFECYCLE } from './disputes/dispute.lifecycle';
import type { Lifecycle } from '../platform/lifecycle/lifecycle';
import { MAIL_LIFECYCLE } from './notifications/mail.lifecycle';
import { PAYMENT_LIFECYCLE } from './payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from './refunds/refund.lifecycle';
import { SELLER_ACCOUNT_LIFECYCLE } from './identity/seller-account.lifecycle';
import { SELLER_LIFECYCLE } from './identity/seller.lifecycle';
import { SETTLEMENT_PROPOSAL_LIFECYCLE } from './checkout/settlement-proposal.lifecycle';
import { SHOP_LIFECYCLE } from './identity/shop.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhooks/webhook-delivery.lifecycle';
import { WITHDRAWAL_LIFECYCLE } from './withdrawals/withdrawal.lifecycle';

/** Every lifecycle of the service, in the order docs/lifecycles.md shows them (Adyen's inbox table lives beside its store). */
export const LIFECYCLES: readonly Lifecycle[] = [PAYMENT_LIFECYCLE, REFUND_LIFECYCLE, DISPUTE_LIFECYCLE, WITHDRAWAL_LIFECYCLE, WEBHOOK_DELIVERY_LIFECYCLE, MAIL_LIFECYCLE, ACQUIRER_NOTIFICATION_LIFECYCLE, SETTLEMENT_PROPOSAL_LIFECYCLE, SHOP_LIFECYCLE, SELLER_LIFECYCLE, SELLER_ACCOUNT_LIFECYCLE] as unknown as Lifecycle[];
