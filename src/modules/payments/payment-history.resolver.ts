import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import type { GraphQLContext } from '../../platform/graphql/context';
import { refundableRemaining, RefundStatus } from '../refunds';
import { Payment } from './payment.entity';
import { PaymentStatus } from './payment-status';
import { failedAtOf } from './seller-history';

/**
 * What the dashboard shows of a payment's money and origin (docs/dashboard.md, "Payments and refunds" and
 * "History across shops"): what went back to the card, what may still be asked back, and whether it belongs to a
 * shop the seller has since deleted.
 */
@Resolver(() => Payment)
export class PaymentHistoryResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Integer cents refunded to the card so far (refunds carried out, less any the acquirer reversed).' })
  async refundedAmount(@Root() payment: Payment, @Ctx() context: GraphQLContext): Promise<number> {
    const refunds = await context.loaders.refundsOfPayment.load(payment.id);
    return refunds.filter((r) => r.status === RefundStatus.REFUNDED).reduce((sum, r) => sum + r.amount, 0);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Integer cents a new refund request may still ask for (0 unless completed; open requests count).' })
  async refundableAmount(@Root() payment: Payment, @Ctx() context: GraphQLContext): Promise<number> {
    if (payment.status !== PaymentStatus.COMPLETED) return 0;
    return refundableRemaining(payment.amount, await context.loaders.refundsOfPayment.load(payment.id));
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'When the card (or the 3-D Secure answer) last went to the acquirer; null before any card.' })
  cardSubmittedAt(@Root() payment: Payment): Date | null {
    return payment.processingSince;
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'When it failed (declined, expired or stopped): the time of its payment.failed event; null otherwise.' })
  async failedAt(@Root() payment: Payment, @Ctx() context: GraphQLContext): Promise<Date | null> {
    if (payment.status !== PaymentStatus.FAILED) return null;
    return failedAtOf(context.em, payment.id);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => Boolean, { description: 'Its shop was deleted (the seller replaced it): its history stays, read-only but for refund requests and disputes.' })
  async fromPastShop(@Root() payment: Payment, @Ctx() context: GraphQLContext): Promise<boolean> {
    const shop = await context.loaders.shop.load(payment.shop.id);
    return Boolean(shop?.deletedAt);
  }
}
