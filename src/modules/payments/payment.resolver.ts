import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { sellerShop, sellerShopId, shopScopeFor } from '../../platform/graphql/request-scope';
import { sellerAccountStatus } from '../identity';
import { paymentMaximumFor } from '../identity';
import type { PaymentsContext } from './payments-context';
import type { Payment } from './payment.entity';
import { PaymentObject } from './payment.object';
import { checkoutUrlFor } from './payment-rules';
import { createPayment, findPayment, findShopPayment, listPayments } from './payment.service';
import { findSellerPayment } from './seller-history';
import type { PaymentView } from './payment-view';
import { PaymentStatus } from './payment-status';
import { CreatePaymentInput, CreatePaymentResult, PaymentList } from './payment.types';
import { PageArgs } from '../../platform/graphql/pages';

@Resolver(() => PaymentObject)
export class PaymentResolver {
  @Authorized('SELLER')
  @Mutation(() => CreatePaymentResult, { description: 'Creates a pending payment for the calling shop.' })
  async createPayment(
    @Arg('input', () => CreatePaymentInput) input: CreatePaymentInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() context: PaymentsContext,
  ): Promise<CreatePaymentResult> {
    const shopId = sellerShopId(context);
    const maximum = paymentMaximumFor(await sellerAccountStatus(context), context.services.paymentMaximums);
    const outcome = await createPayment(context.em, shopId, input, idempotencyKey, maximum);
    if (!outcome.replayed) {
      context.services.logger.info({ requestId: context.requestId, paymentId: outcome.payment.id, shopId, amount: outcome.payment.amount }, 'payment created');
    }
    return outcome;
  }

  @Authorized('SELLER', 'ADMIN')
  @Query(() => PaymentObject, { description: "A payment by id; sellers see only their own shop's." })
  // The read shape, whoever asks. A seller's API key gets nothing more: it is the REST retrieve hot path, and no
  // entity is built. A dashboard session and an admin get the entity, which has that shape too, and whose story
  // (card, fee, refunds, deliveries) only their field resolvers read (back-office/payment-admin.resolver.ts).
  payment(@Arg('id', () => ID) id: string, @Ctx() context: PaymentsContext): Promise<PaymentView> {
    const expiry = context.services.checkout;
    // Owner-checked against every shop of the seller, past and present (docs/dashboard.md, "History across shops").
    if (context.actor.kind === 'session') return findSellerPayment(context.em, id, context.actor.sellerId, expiry);
    const shopScope = shopScopeFor(context, null);
    return shopScope ? findShopPayment(context.em, id, shopScope, expiry) : findPayment(context.em, id, null, expiry);
  }

  @Authorized('SELLER')
  @Query(() => PaymentList, { description: "The calling shop's payments, newest first." })
  payments(
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Arg('status', () => PaymentStatus, { nullable: true }) status: PaymentStatus | null,
    @Ctx() context: PaymentsContext,
  ): Promise<PaymentList> {
    return listPayments(context.em, sellerShop(context), page, limit, status);
  }

  @FieldResolver(() => Boolean, { description: 'A live test from the dashboard: refunded automatically, no fee (docs/dashboard.md, "Live test").' })
  // A create's answer is never a test (a create cannot set it): its view does not carry the flag.
  test(@Root() payment: { test?: boolean }): boolean {
    return payment.test === true;
  }

  @FieldResolver(() => String, { description: 'Where the customer pays: {BASE_URL}/checkout/<id>.' })
  // The root is typed by shape, not as the entity class: type-graphql would otherwise build a `Payment`
  // entity from every plain view it is given (the REST hot paths), for one field it never needed.
  checkoutUrl(@Root() payment: Pick<Payment, 'id'>, @Ctx() context: PaymentsContext): string {
    return checkoutUrlFor(context.baseUrl, payment.id);
  }
}
