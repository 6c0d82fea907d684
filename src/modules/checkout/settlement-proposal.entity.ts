import { Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { prefixedId } from '../../shared/random-id';
import type { Admin } from '../admins';
import { SETTLEMENT_PROPOSAL_LIFECYCLE } from './settlement-proposal.lifecycle';
import { SettlementAnswer } from './settlement-rules';

/** The settlement proposal lifecycle's states (settlement-proposal.lifecycle.ts). */
export const SettlementProposalStatus = enumOf(SETTLEMENT_PROPOSAL_LIFECYCLE.states);
export type SettlementProposalStatus = (typeof SettlementProposalStatus)[keyof typeof SettlementProposalStatus];

/** A settlement by hand waiting for, or past, its second finance admin; GraphQL shows it as SettlementProposalObject. */
@Entity({ tableName: 'settlement_proposals' })
export class SettlementProposal {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('sp', 24);

  @Property({ type: 'string' })
  targetType!: 'payment' | 'refund';

  @Property({ type: 'string' })
  targetId!: string;

  /** The target's status when proposed: confirming settles only while it still stands there. */
  @Property({ type: 'string' })
  targetStatus!: string;

  @Enum({ items: () => SettlementAnswer })
  answer!: SettlementAnswer;

  @Property({ type: 'string', nullable: true })
  acquirerReference: string | null = null;

  @Property({ type: 'text' })
  reason!: string;

  @Enum({ items: () => SettlementProposalStatus })
  status: Opt<SettlementProposalStatus> = SettlementProposalStatus.PROPOSED;

  @ManyToOne('Admin')
  requestedBy!: Admin;

  @ManyToOne('Admin', { nullable: true })
  reviewedBy: Admin | null = null;

  @Property({ type: 'text', nullable: true })
  outcome: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  reviewedAt: Date | null = null;
}
