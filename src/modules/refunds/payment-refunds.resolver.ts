import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import type { RefundsContext } from './refunds-context';
import { Payment, PaymentStatus } from '../payments';
import { PaymentObject } from '../payments/web';
import { RefundStatus } from './refund.entity';
import { refundableRemaining } from './refund-rules';

/**
 * What the dashboard shows of a payment's refunds (docs/dashboard.md, "Payments and refunds"): what went back to
 * the card and what may still be asked back. Refunds add these fields to the payment's type, as they know payments.
 */
@Resolver(() => PaymentObject)
export class PaymentRefundsResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Integer cents refunded to the card so far (refunds carried out, less any the acquirer reversed).' })
  async refundedAmount(@Root() payment: Payment, @Ctx() context: RefundsContext): Promise<number> {
    const refunds = await context.loaders.refundsOfPayment.load(payment.id);
    return refunds.filter((r) => r.status === RefundStatus.REFUNDED).reduce((sum, r) => sum + r.amount, 0);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SafeIntResolver, { description: 'Integer cents a new refund request may still ask for (0 unless completed, and while a chargeback stands; open requests count).' })
  async refundableAmount(@Root() payment: Payment, @Ctx() context: RefundsContext): Promise<number> {
    if (payment.status !== PaymentStatus.COMPLETED) return 0;
    const remaining = refundableRemaining(payment.amount, await context.loaders.refundsOfPayment.load(payment.id));
    // The cardholder has the money back already: no refund may be requested while the chargeback stands.
    if (remaining > 0 && (await context.loaders.chargebackStands.load(payment.id))) return 0;
    return remaining;
  }
}
