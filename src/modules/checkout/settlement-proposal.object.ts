import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { SettlementProposalStatus } from './settlement-proposal.entity';
import { SettlementAnswer } from './settlement-rules';

registerEnumType(SettlementAnswer, { name: 'SettlementAnswer', description: "What the acquirer's own records say." });

registerEnumType(SettlementProposalStatus, { name: 'SettlementProposalStatus' });

@ObjectType('SettlementProposal', {
  description: "A finance admin's record of what the acquirer's own records say of a payment or refund left without an answer; another finance admin confirms it (four eyes).",
})
export class SettlementProposalObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'payment or refund.' })
  targetType!: 'payment' | 'refund';

  @Field(() => ID, { description: 'The payment (pay_…) or refund (ref_…) it settles.' })
  targetId!: string;

  @Field(() => SettlementAnswer)
  answer!: SettlementAnswer;

  @Field(() => String, { nullable: true, description: "The acquirer's reference (Adyen's PSP reference) of an authorisation or refund it carried out." })
  acquirerReference!: string | null;

  @Field(() => String, { description: 'Why, and where the proposer read the answer.' })
  reason!: string;

  @Field(() => SettlementProposalStatus)
  status!: SettlementProposalStatus;

  @Field(() => String, { nullable: true, description: 'What confirming it did (completed, failed, refunded, or nothing and why).' })
  outcome!: string | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  reviewedAt!: Date | null;
}
