import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { DisputeLiability, DisputeStatus } from './dispute.entity';

registerEnumType(DisputeStatus, { name: 'DisputeStatus' });
registerEnumType(DisputeLiability, { name: 'DisputeLiability', description: 'Who bears the disputed amount.' });

/**
 * Its `liability` is computed from the entity the resolvers return, so it is a field resolver
 * (DisputeAdminResolver.liability), not a field read here.
 */
@ObjectType('Dispute', { description: 'A dispute (chargeback) the acquirer notified against a payment, and what it did to the balance.' })
export class DisputeObject {
  @Field(() => ID)
  id!: string;

  @Field(() => DisputeStatus)
  status!: DisputeStatus;

  @Field(() => SafeIntResolver, { description: 'Integer cents disputed: at most the payment amount.' })
  amount!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => String, { nullable: true, description: "The issuer's reason, as the acquirer gave it." })
  reason!: string | null;

  @Field(() => String, { description: "The acquirer's reference of the dispute (every event of one dispute carries it)." })
  acquirerReference!: string;

  @Field(() => SafeIntResolver, { description: 'Integer cents of the disputed amount the seller bears; the platform bears the rest.' })
  sellerShare!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was flagged for finance to contest (the payment had already been refunded, in part or in full).' })
  contestFlaggedAt!: Date | null;

  @Field(() => DateTimeISOResolver)
  openedAt!: Date;

  @Field(() => DateTimeISOResolver)
  updatedAt!: Date;
}
