import { Authorized, Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import type { BackOfficeContext } from './back-office-context';
import { Shop } from '../identity';
import { ShopObject } from '../identity/web';
import { FLAGGED_NOTIFICATIONS_WINDOW_DAYS, workQueueFigures, type FailingWebhookShop as FailingShopFigures, type WorkQueueFigures } from './work-queue';

@ObjectType({ description: 'A shop whose webhook deliveries keep failing: deliveries are still being retried, and none succeeded since the oldest of them.' })
export class FailingWebhookShop implements FailingShopFigures {
  shopId!: string;
  shopName!: string;
  @Field(() => DateTimeISOResolver, { description: 'When the oldest delivery still being retried was created.' }) failingSince!: Date;
  @Field(() => Int, { description: 'Deliveries still being retried after at least one failed attempt.' }) failing!: number;
}

@ObjectType({ description: "What waits for admins: the back office's Home screen, counted in one request." })
export class WorkQueue implements WorkQueueFigures {
  @Field(() => Int, { description: 'Refund requests waiting for review.' }) refundsWaiting!: number;
  @Field(() => Int, { description: 'Of those, recorded more than 20 hours ago and not yet 24: near the review promise (finance has been mailed).' }) refundsNearDeadline!: number;
  @Field(() => Int, { description: 'Of those, recorded more than 24 hours ago: past the review promise.' }) refundsPastDeadline!: number;
  @Field(() => DateTimeISOResolver, { nullable: true }) oldestRefundRequestedAt!: Date | null;
  @Field(() => Int, { description: `Refunds the card scheme rejected after the acquirer carried them out, in the last ${FLAGGED_NOTIFICATIONS_WINDOW_DAYS} days: the seller was credited back and told; the customer did not get the money.` })
  refundsFailedAfterSuccess!: number;
  @Field(() => Int, { description: 'Withdrawals waiting for approval.' }) withdrawalsRequested!: number;
  @Field(() => Int, { description: 'Approved withdrawals waiting for the bank transfer (mark them paid).' }) withdrawalsApproved!: number;
  @Field(() => Int, { description: "Requested withdrawals whose seller's available balance is negative: they cannot be approved yet." }) withdrawalsNotCovered!: number;
  @Field(() => Int, { description: 'Disputes still open.' }) disputesOpen!: number;
  @Field(() => Int, { description: 'Of those, flagged for finance to contest (the payment had been refunded already).' }) disputesToContest!: number;
  @Field(() => Int, { description: 'Mails the SMTP server refused for good, or that could not be sent in time.' }) mailsFailed!: number;
  @Field(() => Int, { description: 'Mails whose delivery is unknown (the server never answered).' }) mailsUnknown!: number;
  @Field(() => Int, { description: `Acquirer notifications that booked nothing, received in the last ${FLAGGED_NOTIFICATIONS_WINDOW_DAYS} days.` }) acquirerNotificationsFlagged!: number;
  @Field(() => Int, { description: 'Shops whose webhook deliveries keep failing.' }) failingWebhookShops!: number;
  @Field(() => [FailingWebhookShop], { description: 'The first 20 of them, failing longest first.' }) failingWebhooks!: FailingWebhookShop[];
}

@Resolver(() => FailingWebhookShop)
export class WorkQueueResolver {
  @Authorized('ADMIN')
  @Query(() => WorkQueue, { description: "What waits for admins (the back office's Home): refund requests near or past the 24-hour promise, withdrawals, disputes, mails, webhooks, acquirer notifications." })
  workQueue(@Ctx() context: BackOfficeContext): Promise<WorkQueueFigures> {
    return workQueueFigures(context.em);
  }

  @FieldResolver(() => ShopObject)
  async shop(@Root() failing: FailingWebhookShop, @Ctx() context: BackOfficeContext): Promise<Shop> {
    return (await context.loaders.shop.load(failing.shopId))!;
  }
}
