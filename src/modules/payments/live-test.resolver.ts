import { Authorized, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { sellerShopId } from '../../platform/graphql/request-scope';
import type { PaymentsContext } from './payments-context';
import type { Payment } from './payment.entity';
import { PaymentObject } from './payment.object';
import { liveTestAllowance, runLiveTest } from './live-test';

@ObjectType({ description: 'How many live tests the shop may run today (UTC).' })
export class LiveTestAllowance {
  @Field(() => Int) dailyLimit!: number;
  @Field(() => Int) usedToday!: number;
  @Field(() => Int) remainingToday!: number;
}

@ObjectType()
export class LiveTest {
  @Field(() => PaymentObject, { description: 'The 50-cent test payment: pay it at its checkoutUrl with your own card.' })
  payment!: Payment;

  @Field(() => LiveTestAllowance)
  allowance!: LiveTestAllowance;
}

/**
 * Live tests (docs/dashboard.md, "Live test"): a signed-in seller only. An API key, which may have leaked and
 * which the REST API is built on, can neither start one nor read the allowance.
 */
@Resolver()
export class LiveTestResolver {
  @Authorized('SESSION')
  @Mutation(() => LiveTest, { description: "A 50-cent live test of the session's shop, refunded automatically (fee waived) once paid; at most 5 per UTC day." })
  async runLiveTest(@Ctx() context: PaymentsContext): Promise<LiveTest> {
    const shopId = sellerShopId(context);
    const payment = await runLiveTest(context.em, shopId, context.baseUrl);
    context.services.logger.info({ requestId: context.requestId, paymentId: payment.id, shopId }, 'live test created');
    return { payment, allowance: await liveTestAllowance(context.em, shopId) };
  }

  @Authorized('SESSION')
  @Query(() => LiveTestAllowance, { description: "The session's shop's live tests today (UTC)." })
  liveTestAllowance(@Ctx() context: PaymentsContext): Promise<LiveTestAllowance> {
    return liveTestAllowance(context.em, sellerShopId(context));
  }
}
