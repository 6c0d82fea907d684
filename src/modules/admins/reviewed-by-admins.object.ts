import { Field, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';

/**
 * The GraphQL fields of a review (reviewed-by-admins.ts), declared once for RefundObject and WithdrawalObject.
 * Decorated so that type-graphql hands its fields to the subclasses; no field returns it, so it is not in the schema.
 */
@ObjectType()
export abstract class ReviewedByAdminsObject {
  @Field(() => String, { nullable: true })
  rejectionReason!: string | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  reviewedAt!: Date | null;
}
