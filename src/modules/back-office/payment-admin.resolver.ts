import { Arg, Args, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { AuditEntry } from '../audit';
import { AuditEntryObject } from '../audit/web';
import { type Dispute, disputeOf } from '../disputes';
import { DisputeObject } from '../disputes/web';
import { sellerShopId, shopScopeFor } from '../../platform/graphql/request-scope';
import type { BackOfficeContext } from './back-office-context';
import { paymentFee, type LedgerEntry } from '../ledger';
import { LedgerEntryObject } from '../ledger/web';
import { type Refund } from '../refunds';
import { RefundObject } from '../refunds/web';
import { Shop } from '../identity';
import { ShopObject } from '../identity/web';
import { type WebhookDelivery } from '../webhooks';
import { WebhookDeliveryObject } from '../webhooks/web';
import { CheckoutStage, Payment, PaymentStatus, searchPayments, type PaymentView } from '../payments';
import { PaymentList, PaymentObject } from '../payments/web';
import type { Page } from '../../shared/pagination';
import { PageArgs } from '../../platform/graphql/pages';
import { ListOrder } from '../../shared/list-order';

@InputType({ description: 'Every criterion given must match.' })
export class PaymentSearchInput {
  @Field(() => ID, { nullable: true }) id?: string | null;
  @Field(() => ID, { nullable: true }) shopId?: string | null;
  @Field(() => PaymentStatus, { nullable: true }) status?: PaymentStatus | null;
  @Field(() => String, { nullable: true, description: 'The exact address, any case.' }) customerEmail?: string | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created at or after.' }) createdFrom?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created before.' }) createdTo?: Date | null;
  @Field(() => String, { nullable: true, description: 'The start of the customer e-mail address, any case, at least 3 characters (jane@ex finds jane@example.com).' })
  customerEmailPrefix?: string | null;
  @Field(() => String, { nullable: true, description: 'A metadata key the seller set (with metadataValue).' }) metadataKey?: string | null;
  @Field(() => String, { nullable: true, description: 'Its exact value; "42" also finds the number 42, "true" the boolean.' }) metadataValue?: string | null;
  @Field(() => ListOrder, { nullable: true, description: 'Default NEWEST_FIRST.' }) order?: ListOrder | null;
  @Field(() => String, {
    nullable: true,
    description: "Free text: the payment id, part of the customer's e-mail address or name, or a whole metadata value (any case); looked for among the newest 50,000 payments the other criteria select.",
  })
  text?: string | null;
}

/** What may be kept of the card: never its number or security code. */
@ObjectType({ description: 'What is kept of the card used: brand, last four digits and expiry; never the number or security code.' })
export class CardSummary {
  @Field(() => String, { nullable: true }) brand!: string | null;
  @Field(() => String, { nullable: true }) last4!: string | null;
  @Field(() => Int, { nullable: true }) expMonth!: number | null;
  @Field(() => Int, { nullable: true }) expYear!: number | null;
}

/**
 * Support's view of payments (search across shops, each payment's full story) and the seller's in the
 * dashboard: a session reaches its own shop's payments only (shopScopeFor; `payment(id)` is owner-checked),
 * and sees the story a seller may see (fee, net, card summary, 3-D Secure, refunds, deliveries); the
 * ledger lines, audit entries and reconciliation flag stay with admins. API keys keep the REST fields.
 */
@Resolver(() => PaymentObject)
export class PaymentAdminResolver {
  @Authorized('SESSION', 'ADMIN')
  @Query(() => PaymentList, { description: "Payments, newest first, by id, shop, status, customer e-mail and creation date: across shops for admins, the seller's own in the dashboard." })
  searchPayments(
    @Arg('filter', () => PaymentSearchInput, { nullable: true }) filter: PaymentSearchInput | null,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: BackOfficeContext,
  ): Promise<Page<Payment>> {
    // A dashboard session searches every shop of its seller, past and present (docs/dashboard.md, "History across shops").
    if (context.actor.kind === 'session') return searchPayments(context.em, { ...filter, sellerId: context.actor.sellerId }, page, limit);
    const shopId = shopScopeFor(context, filter?.shopId);
    return searchPayments(context.em, { ...filter, shopId }, page, limit);
  }

  @Authorized('SELLER', 'ADMIN')
  @FieldResolver(() => ShopObject)
  // Typed by shape, not as the entity class: a seller's API key reads a plain view of its own payment
  // (payments' payment.resolver.ts), which has no `shop`, and type-graphql would otherwise make an empty entity of it.
  async shop(@Root() payment: PaymentView & { shop?: Shop }, @Ctx() context: BackOfficeContext): Promise<Shop> {
    // Such a view is only ever the calling seller's own payment: its shop is the caller's.
    const shopId = payment.shop ? payment.shop.id : sellerShopId(context);
    return (await context.loaders.shop.load(shopId))!;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => CardSummary, { nullable: true, description: 'Null until a card was submitted.' })
  card(@Root() payment: Payment): CardSummary | null {
    if (!payment.cardLast4) return null;
    return { brand: payment.cardBrand, last4: payment.cardLast4, expMonth: payment.cardExpMonth, expYear: payment.cardExpYear };
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => DisputeObject, { nullable: true, description: 'The dispute (chargeback) the acquirer notified against this payment, if any: its state and what it did to the balance.' })
  dispute(@Root() payment: Payment, @Ctx() context: BackOfficeContext): Promise<Dispute | null> {
    return disputeOf(context.em, payment.id);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => CheckoutStage, { description: 'Where the hosted checkout stands (PROCESSING: card submitted, outcome pending).' })
  checkoutStage(@Root() payment: Payment): CheckoutStage {
    return payment.checkoutStage;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => String, { nullable: true, description: '3-D Secure: frictionless, challenged or failed; null when not used.' })
  threeDsOutcome(@Root() payment: Payment): string | null {
    return payment.threeDsOutcome;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Needs attention: set when the acquirer still could not say whether the card was charged after RECONCILE_GIVE_UP_MS; an admin must settle it with the acquirer.',
  })
  needsAttentionAt(@Root() payment: Payment): Date | null {
    return payment.needsAttentionAt;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => String, { nullable: true, description: 'Why it failed, for example card_declined.' })
  failureCode(@Root() payment: Payment): string | null {
    return payment.failureCode;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Our 15% fee in cents, charged when it completes; none for a live test.' })
  fee(@Root() payment: Payment): number {
    return paymentFee(payment);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Amount minus the fee: what the seller is credited.' })
  netAmount(@Root() payment: Payment): number {
    return payment.amount - paymentFee(payment);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => [RefundObject], { description: 'Refund requests, oldest first.' })
  refunds(@Root() payment: Payment, @Ctx() context: BackOfficeContext): Promise<Refund[]> {
    return context.loaders.refundsOfPayment.load(payment.id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => [LedgerEntryObject], { description: 'Every ledger entry of this payment (credit, fee, refund).' })
  ledgerEntries(@Root() payment: Payment, @Ctx() context: BackOfficeContext): Promise<LedgerEntry[]> {
    return context.loaders.ledgerOfPayment.load(payment.id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => [AuditEntryObject], { description: 'Admin actions on this payment and on its refunds, oldest first.' })
  async auditEntries(@Root() payment: Payment, @Ctx() context: BackOfficeContext): Promise<AuditEntry[]> {
    const refunds = await context.loaders.refundsOfPayment.load(payment.id);
    const lists = await context.loaders.auditOfTarget.loadMany([payment.id, ...refunds.map((r) => r.id)]);
    return lists
      .flatMap((list) => (list instanceof Error ? [] : list))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => [WebhookDeliveryObject], { description: 'Webhook deliveries of its events, with every attempt.' })
  webhookDeliveries(@Root() payment: Payment, @Ctx() context: BackOfficeContext): Promise<WebhookDelivery[]> {
    return context.loaders.deliveriesOfPayment.load(payment.id);
  }
}
