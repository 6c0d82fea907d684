import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { CheckoutContext } from './checkout-context';
import { languageFromAcceptLanguage } from '../../shared/customer-language/languages';
import { rememberPaymentLanguage } from '../payments';
import { authenticationUrlWith, cancelRedirectOf, checkoutViewOf } from './checkout-view';
import { answerThreeDSecure, openCheckoutPayment, submitCard } from './checkout.service';
import { BrowserInput, CancelCheckoutResult, CardInput, CheckoutView } from './checkout.types';

/** The simulated acquirer runs: no real card is charged (the page says so; docs/checkout.md, "The hosted page"). */
const inTestMode = (context: CheckoutContext): boolean => context.services.simulator !== null;

function withoutNulls<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: Exclude<T[K], null> };
}

/**
 * The public checkout operations. No `@Authorized`: the payment id (about 143 random bits) is the
 * capability, and the view shows nothing about the customer. Callers without credentials reach only
 * these, through the allow-list in src/api/graphql/public-operations.ts.
 */
@Resolver(() => CheckoutView)
export class CheckoutResolver {
  @FieldResolver(() => Boolean, { description: 'The simulated acquirer runs: no real card is charged (the page shows a test-mode banner).' })
  testMode(@Ctx() context: CheckoutContext): boolean {
    return inTestMode(context);
  }

  @Query(() => CheckoutView, { description: 'The hosted checkout view of a payment.' })
  async checkoutPayment(@Arg('id', () => ID) id: string, @Ctx() context: CheckoutContext): Promise<CheckoutView> {
    return checkoutViewOf(await openCheckoutPayment(context.services.checkout, context.em, id), inTestMode(context));
  }

  @Mutation(() => CheckoutView, { description: 'Pays with a card. Runs at most once per payment; later calls answer the outcome.' })
  async submitCard(
    @Arg('paymentId', () => ID) paymentId: string,
    @Arg('card', () => CardInput) card: CardInput,
    @Ctx() context: CheckoutContext,
    @Arg('browser', () => BrowserInput, { nullable: true, description: "The customer's screen, for 3-D Secure 2." }) browser?: BrowserInput | null,
  ): Promise<CheckoutView> {
    // The page sends its own language (Accept-Language): the customer pays in it, and hears from us in it later.
    const language = languageFromAcceptLanguage(context.browserHeaders.acceptLanguage);
    if (language) await rememberPaymentLanguage(context.em, paymentId, language);
    const shopper = { ip: context.clientAddress, userAgent: context.browserHeaders.userAgent, acceptHeader: context.browserHeaders.accept, ...withoutNulls(browser ?? {}) };
    let challengeToken: string | undefined;
    const caller = { em: context.em, clientAddress: context.clientAddress, requestId: context.requestId, keepChallengeToken: (token: string) => void (challengeToken = token) };
    const view = checkoutViewOf(await submitCard(context.services.checkout, caller, paymentId, card, shopper), inTestMode(context));
    // Only this answer carries the way to the issuer: nobody else who knows the payment id can reach it.
    return challengeToken && view.authenticationUrl ? { ...view, authenticationUrl: authenticationUrlWith(view.authenticationUrl, challengeToken) } : view;
  }

  @Mutation(() => CheckoutView, { description: 'The answer to the 3-D Secure challenge.' })
  async answerThreeDSecure(
    @Arg('paymentId', () => ID) paymentId: string,
    @Arg('authenticated', () => Boolean) authenticated: boolean,
    @Ctx() context: CheckoutContext,
  ): Promise<CheckoutView> {
    return checkoutViewOf(await answerThreeDSecure(context.services.checkout, context, paymentId, authenticated), inTestMode(context));
  }

  @Mutation(() => CancelCheckoutResult, { description: 'The customer gives up; the payment stays pending.' })
  async cancelCheckout(@Arg('paymentId', () => ID) paymentId: string, @Ctx() context: CheckoutContext): Promise<CancelCheckoutResult> {
    return { redirectUrl: cancelRedirectOf(await openCheckoutPayment(context.services.checkout, context.em, paymentId), inTestMode(context)) };
  }
}
