import { BigIntType, Entity, Enum, Index, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import type { Shop } from '../identity';
import { CheckoutStage, PaymentStatus, type ThreeDsOutcome } from './payment-status';
import { newPaymentId } from './payment-rules';
import type { Metadata } from './payment-rules';

/** A card payment, as stored. What GraphQL (and so REST) can ever show of it is PaymentObject (payment.object.ts). */
@Entity({ tableName: 'payments' })
@Index({ name: 'payments_shop_created_idx', properties: ['shop', 'createdAt'] })
export class Payment {
  @PrimaryKey({ type: 'string' })
  id: string = newPaymentId();

  @ManyToOne('Shop')
  shop!: Shop;

  /** Integer cents of USD; bigint so that no amount a seller may charge overflows. */
  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'string', length: 3 })
  currency: Opt<string> = 'usd';

  @Enum({ items: () => PaymentStatus })
  status: Opt<PaymentStatus> = PaymentStatus.PENDING;

  @Property({ type: 'text' })
  returnUrl!: string;

  @Property({ type: 'string', nullable: true })
  customerEmail: string | null = null;

  @Property({ type: 'text', nullable: true })
  customerName: string | null = null;

  /** `json`, not `jsonb`: the seller's key order is echoed back as sent. */
  @Property({ type: 'json', columnType: 'json' })
  metadata: Opt<Metadata> = {};

  /**
   * A live test (docs/dashboard.md, "Live test"): 50 cents the seller pays with their own card from the dashboard,
   * refunded at once with the fee waived. Only the dashboard's live-test mutation sets it, never a create.
   * Its GraphQL field is PaymentResolver.test (plain views from the REST hot paths carry it too).
   */
  @Property({ type: 'boolean' })
  test: Opt<boolean> = false;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  completedAt: Date | null = null;

  /** The lifecycle's `error` (for example `card_declined`): for admins, not in REST payloads. */
  @Property({ type: 'string', nullable: true })
  failureCode: string | null = null;

  /** Where the hosted checkout stands; `processing` is the spec's intermediate stage, not a status. */
  @Enum({ items: () => CheckoutStage })
  checkoutStage: Opt<CheckoutStage> = CheckoutStage.CARD_REQUIRED;

  /** How 3-D Secure went (frictionless, challenged, failed), for admins. */
  @Property({ type: 'string', nullable: true })
  threeDsOutcome: ThreeDsOutcome | null = null;

  /** The acquirer's reference of an open 3-D Secure challenge. */
  @Property({ type: 'string', nullable: true, hidden: true })
  threeDsReference: string | null = null;

  /** Where the customer authenticates with the issuer (redirect 3-D Secure), while the challenge is open. */
  @Property({ type: 'json', nullable: true, hidden: true })
  threeDsRedirect: { url: string; method: 'GET' | 'POST'; data?: Record<string, string> } | null = null;

  /**
   * SHA-256 (hex) of the single-use token in the 3-D Secure return address, while the challenge is open: only
   * a return carrying that token (the browser the issuer sends back) may answer it. The token is never kept.
   */
  @Property({ type: 'string', nullable: true, hidden: true })
  threeDsReturnHash: string | null = null;

  /** What may be kept of a card: brand, last four digits, expiry. Never the number or security code. */
  @Property({ type: 'string', nullable: true })
  cardBrand: string | null = null;

  @Property({ type: 'string', length: 4, nullable: true })
  cardLast4: string | null = null;

  @Property({ type: 'smallint', nullable: true })
  cardExpMonth: number | null = null;

  @Property({ type: 'smallint', nullable: true })
  cardExpYear: number | null = null;

  /** When the card (or the 3-D Secure answer) went to the acquirer; reconciliation counts from it. */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  processingSince: Date | null = null;

  /** The reconciliation sweeper's lease: no other instance asks the acquirer about it before this. */
  @Property({ type: 'datetime', nullable: true, hidden: true })
  reconcileLeasedUntil: Date | null = null;

  /** Set when the acquirer still could not say after RECONCILE_GIVE_UP_MS: an admin must settle it. */
  @Property({ type: 'datetime', nullable: true })
  needsAttentionAt: Date | null = null;

  /** The acquirer's id of the authorization, for refunds and reconciliation. */
  @Property({ type: 'string', nullable: true, hidden: true })
  processorReference: string | null = null;
}
