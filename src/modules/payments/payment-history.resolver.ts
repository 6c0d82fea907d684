import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import type { PaymentsContext } from './payments-context';
import { Payment } from './payment.entity';
import { PaymentObject } from './payment.object';
import { PaymentStatus } from './payment-status';
import { failedAtOf } from './seller-history';

/**
 * What the dashboard shows of a payment's story and origin (docs/dashboard.md, "History across shops"): when its
 * card went to the acquirer, when it failed, and whether it belongs to a shop the seller has since deleted. What
 * went back to the card is refunds' to add (src/modules/refunds/payment-refunds.resolver.ts).
 */
@Resolver(() => PaymentObject)
export class PaymentHistoryResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'When the card (or the 3-D Secure answer) last went to the acquirer; null before any card.' })
  cardSubmittedAt(@Root() payment: Payment): Date | null {
    return payment.processingSince;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'When it failed (declined, expired or stopped): the time of its payment.failed event; null otherwise.' })
  async failedAt(@Root() payment: Payment, @Ctx() context: PaymentsContext): Promise<Date | null> {
    if (payment.status !== PaymentStatus.FAILED) return null;
    return failedAtOf(context.em, payment.id);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => Boolean, { description: 'Its shop was deleted (the seller replaced it): its history stays, read-only but for refund requests and disputes.' })
  async fromPastShop(@Root() payment: Payment, @Ctx() context: PaymentsContext): Promise<boolean> {
    const shop = await context.loaders.shop.load(payment.shop.id);
    return Boolean(shop?.deletedAt);
  }
}
