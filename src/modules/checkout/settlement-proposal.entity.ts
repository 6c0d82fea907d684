import { Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { prefixedId } from '../../shared/random-id';
import type { Admin } from '../admins';
import { SETTLEMENT_PROPOSAL_LIFECYCLE } from './settlement-proposal.lifecycle';
import { SettlementAnswer } from './settlement-rules';

/** The settlement proposal lifecycle's states (settlement-proposal.lifecycle.ts). */
export const SettlementProposalStatus = enumOf(SETTLEMENT_PROPOSAL_LIFECYCLE.states);
export type SettlementProposalStatus = (typeof SettlementProposalStatus)[keyof typeof SettlementProposalStatus];
registerEnumType(SettlementProposalStatus, { name: 'SettlementProposalStatus' });

@ObjectType({ description: "A finance admin's record of what the acquirer's own records say of a payment or refund left without an answer; another finance admin confirms it (four eyes)." })
@Entity({ tableName: 'settlement_proposals' })
export class SettlementProposal {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('sp', 24);

  @Field(() => String, { description: 'payment or refund.' })
  @Property({ type: 'string' })
  targetType!: 'payment' | 'refund';

  @Field(() => ID, { description: 'The payment (pay_…) or refund (ref_…) it settles.' })
  @Property({ type: 'string' })
  targetId!: string;

  /** The target's status when proposed: confirming settles only while it still stands there. */
  @Property({ type: 'string' })
  targetStatus!: string;

  @Field(() => SettlementAnswer)
  @Enum({ items: () => SettlementAnswer })
  answer!: SettlementAnswer;

  @Field(() => String, { nullable: true, description: "The acquirer's reference (Adyen's PSP reference) of an authorisation or refund it carried out." })
  @Property({ type: 'string', nullable: true })
  acquirerReference: string | null = null;

  @Field(() => String, { description: 'Why, and where the proposer read the answer.' })
  @Property({ type: 'text' })
  reason!: string;

  @Field(() => SettlementProposalStatus)
  @Enum({ items: () => SettlementProposalStatus })
  status: Opt<SettlementProposalStatus> = SettlementProposalStatus.PROPOSED;

  @ManyToOne('Admin')
  requestedBy!: Admin;

  @ManyToOne('Admin', { nullable: true })
  reviewedBy: Admin | null = null;

  @Field(() => String, { nullable: true, description: 'What confirming it did (completed, failed, refunded, or nothing and why).' })
  @Property({ type: 'text', nullable: true })
  outcome: string | null = null;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  reviewedAt: Date | null = null;
}
