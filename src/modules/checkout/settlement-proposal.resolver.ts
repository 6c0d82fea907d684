import { Arg, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { currentAdmin } from '../../platform/graphql/request-scope';
import type { CheckoutContext } from './checkout-context';
import { SettlementProposal } from './settlement-proposal.entity';
import { SettlementProposalObject } from './settlement-proposal.object';
import { confirmSettlement, openSettlementProposals, proposeSettlement, rejectSettlement, settlementProposalsOf } from './settlement-proposals';
import { SettlementAnswer } from './settlement-rules';

@InputType({ description: "What the acquirer's own records say of a payment or refund whose answer never reached us." })
class SettlementProposalInput {
  @Field(() => ID, { description: 'A payment id (pay_…) whose card is at the acquirer without an answer, or a refund id (ref_…).' })
  targetId!: string;

  @Field(() => SettlementAnswer)
  answer!: SettlementAnswer;

  @Field(() => String, { nullable: true, description: "The acquirer's reference (Adyen's PSP reference): required for AUTHORISED and REFUNDED." })
  acquirerReference?: string | null;

  @Field(() => String, { description: 'Why, and where the answer was read (kept in the audit log).' })
  reason!: string;
}

/** Settling by hand with four eyes (docs/admin.md, "Settling by hand"): finance proposes, another finance admin confirms. */
@Resolver(() => SettlementProposalObject)
export class SettlementProposalResolver {
  @Authorized('ADMIN')
  @Query(() => [SettlementProposalObject], { description: 'Settlements by hand waiting for a second finance admin, oldest first; or every proposal of the given payment or refund ids, newest first.' })
  async settlementProposals(
    @Arg('targetIds', () => [ID], { nullable: true, description: 'Payment or refund ids (at most 50).' }) targetIds: string[] | null,
    @Arg('limit', () => Int, { defaultValue: 50, description: 'At most 200 (the waiting list only).' }) limit: number,
    @Ctx() context: CheckoutContext,
  ): Promise<SettlementProposal[]> {
    if (targetIds?.length) return settlementProposalsOf(context.em, targetIds.slice(0, 50));
    return openSettlementProposals(context.em, Math.min(Math.max(limit, 1), 200));
  }

  @Authorized('FINANCE')
  @Mutation(() => SettlementProposalObject, { description: 'Records what the acquirer says of a payment or refund left without an answer. Nothing moves until another finance admin confirms it. Audited with the reason.' })
  proposeSettlement(@Arg('input', () => SettlementProposalInput) input: SettlementProposalInput, @Ctx() context: CheckoutContext): Promise<SettlementProposal> {
    return proposeSettlement(context.em, currentAdmin(context), { ...input, acquirerReference: input.acquirerReference ?? null });
  }

  @Authorized('FINANCE')
  @Mutation(() => SettlementProposalObject, {
    description: 'Confirms a proposal recorded by another finance admin (four eyes): settles the payment or refund by that answer, through the same moves as the acquirer\'s own, if it still stands where it stood. Audited with the reason.',
  })
  confirmSettlement(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: CheckoutContext): Promise<SettlementProposal> {
    return confirmSettlement(context.em, context.services.checkout, currentAdmin(context), id, reason);
  }

  @Authorized('FINANCE')
  @Mutation(() => SettlementProposalObject, { description: 'Sets a proposal aside (its proposer or another finance admin): nothing moves. Audited with the reason.' })
  rejectSettlement(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: CheckoutContext): Promise<SettlementProposal> {
    return rejectSettlement(context.em, currentAdmin(context), id, reason);
  }

  @FieldResolver(() => String, { description: 'The finance admin who proposed it.' })
  proposedBy(@Root() proposal: SettlementProposal): string {
    return proposal.requestedBy.email;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The admin who confirmed or rejected it.' })
  reviewedByEmail(@Root() proposal: SettlementProposal): string | null {
    return proposal.reviewedBy?.email ?? null;
  }
}
