import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';
import type { Lifecycle } from './lifecycle';
import { MAIL_LIFECYCLE } from './mail.lifecycle';
import { PAYMENT_LIFECYCLE } from './payment.lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhook-delivery.lifecycle';
import { WITHDRAWAL_LIFECYCLE } from './withdrawal.lifecycle';

/** Every lifecycle of the service, in the order docs/lifecycles.md shows them. */
export const LIFECYCLES: readonly Lifecycle[] = [PAYMENT_LIFECYCLE, REFUND_LIFECYCLE, DISPUTE_LIFECYCLE, WITHDRAWAL_LIFECYCLE, WEBHOOK_DELIVERY_LIFECYCLE, MAIL_LIFECYCLE] as unknown as Lifecycle[];
