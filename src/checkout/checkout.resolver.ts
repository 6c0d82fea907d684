import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../graphql/context';
import { cancelRedirectOf, checkoutViewOf } from './checkout-view';
import { answerThreeDSecure, openCheckoutPayment, submitCard } from './checkout.service';
import { CancelCheckoutResult, CardInput, CheckoutView } from './checkout.types';

/**
 * The public checkout operations. No `@Authorized`: the payment id (about 143 random bits) is the
 * capability, and the view shows nothing about the customer. Callers without credentials reach only
 * these, through the allow-list in src/graphql/public-operations.ts.
 */
@Resolver()
export class CheckoutResolver {
  @Query(() => CheckoutView, { description: 'The hosted checkout view of a payment.' })
  async checkoutPayment(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<CheckoutView> {
    return checkoutViewOf(await openCheckoutPayment(context.services.checkout, context.em, id));
  }

  @Mutation(() => CheckoutView, { description: 'Pays with a card. Runs at most once per payment; later calls answer the outcome.' })
  async submitCard(
    @Arg('paymentId', () => ID) paymentId: string,
    @Arg('card', () => CardInput) card: CardInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CheckoutView> {
    return checkoutViewOf(await submitCard(context.services.checkout, context, paymentId, card));
  }

  @Mutation(() => CheckoutView, { description: 'The answer to the 3-D Secure challenge.' })
  async answerThreeDSecure(
    @Arg('paymentId', () => ID) paymentId: string,
    @Arg('authenticated', () => Boolean) authenticated: boolean,
    @Ctx() context: GraphQLContext,
  ): Promise<CheckoutView> {
    return checkoutViewOf(await answerThreeDSecure(context.services.checkout, context, paymentId, authenticated));
  }

  @Mutation(() => CancelCheckoutResult, { description: 'The customer gives up; the payment stays pending.' })
  async cancelCheckout(@Arg('paymentId', () => ID) paymentId: string, @Ctx() context: GraphQLContext): Promise<CancelCheckoutResult> {
    return { redirectUrl: cancelRedirectOf(await openCheckoutPayment(context.services.checkout, context.em, paymentId)) };
  }
}
