import { Arg, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import type { GraphQLContext } from '../../platform/graphql/context';
import type { FlaggedNotification } from '../../platform/processor/adyen/notification-store';

@ObjectType({ description: "An acquirer notification that booked nothing: malformed (rejected), not matching the payment, refund or dispute it names, or needing a person for the shopper's money (flagged), or come before an event it follows and not applied yet (waiting)." })
export class FlaggedAcquirerNotification implements FlaggedNotification {
  @Field(() => ID) id!: string;
  @Field(() => String) pspReference!: string;
  @Field(() => String) eventCode!: string;
  @Field(() => Boolean) success!: boolean;
  @Field(() => String, { nullable: true, description: 'Our payment or refund id, as the acquirer sent it.' }) merchantReference!: string | null;
  @Field(() => SafeIntResolver, { nullable: true, description: 'Minor units, as the acquirer sent them.' }) amountValue!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, { description: 'flagged (did not fit what it names, or the shopper\'s money needs a person), rejected (malformed) or waiting (for an event it follows).' }) status!: 'flagged' | 'rejected' | 'waiting';
  @Field(() => String, { description: 'What did not fit.' }) problem!: string;
  @Field(() => DateTimeISOResolver) receivedAt!: Date;
}

@Resolver()
export class AcquirerNotificationResolver {
  @Authorized('ADMIN')
  @Query(() => [FlaggedAcquirerNotification], { description: "The acquirer's notifications that booked nothing and need an admin's eye, and those waiting for an event they follow, newest first (empty without Adyen)." })
  async flaggedAcquirerNotifications(
    @Arg('limit', () => Int, { defaultValue: 50, description: 'At most 200.' }) limit: number,
    @Ctx() context: GraphQLContext,
  ): Promise<FlaggedAcquirerNotification[]> {
    const store = context.services.acquirerNotifications?.store;
    return store ? store.flagged(Math.min(Math.max(limit, 1), 200)) : [];
  }
}
