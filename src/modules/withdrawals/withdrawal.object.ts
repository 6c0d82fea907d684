import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { ReviewedByAdminsObject } from '../admins/web';
import { WithdrawalStatus } from './withdrawal.entity';

registerEnumType(WithdrawalStatus, { name: 'WithdrawalStatus' });

@ObjectType('Withdrawal', { description: "A request to pay out part of a seller's balance; the amount is held as soon as it is requested." })
export class WithdrawalObject extends ReviewedByAdminsObject {
  @Field(() => ID)
  id!: string;

  @Field(() => SafeIntResolver, { description: 'Integer cents, at least 1000 (10 USD).' })
  amount!: number;

  @Field(() => WithdrawalStatus)
  status!: WithdrawalStatus;

  @Field(() => String, { nullable: true, description: 'The bank transfer reference given when it was paid.' })
  payoutReference!: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  paidAt!: Date | null;
}
