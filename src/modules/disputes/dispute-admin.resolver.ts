import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { currentAdmin } from '../../platform/graphql/request-scope';
import type { DisputesContext } from './disputes-context';
import { domainError } from '../../shared/errors';
import { recordAuditNow } from '../audit';
import { ListOrder } from '../../shared/list-order';
import { type Page } from '../../shared/pagination';
import { PageType } from '../../platform/graphql/pages';
import { type Payment } from '../payments';
import { PaymentObject } from '../payments/web';
import { Dispute, DisputeLiability, DisputeStatus } from './dispute.entity';
import { DisputeObject } from './dispute.object';
import { findDispute, listDisputes } from './dispute-listing';
import { chargebackReversible } from './dispute-rules';

export const DisputeList = PageType(DisputeObject, 'DisputeList');

/** The admins' view of disputes (chargebacks) across shops: the back office's Disputes screen (docs/admin.md). */
@Resolver(() => DisputeObject)
export class DisputeAdminResolver {
  @Authorized('ADMIN')
  @Query(() => DisputeList, { description: 'Disputes across shops, oldest opened first: by status, or only those still open (not won, lost or closed).' })
  disputes(
    @Arg('status', () => DisputeStatus, { nullable: true }) status: DisputeStatus | null,
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 10.' }) limit: number | null,
    @Ctx() context: DisputesContext,
    @Arg('open', () => Boolean, { nullable: true, description: 'Only disputes still open.' }) open?: boolean | null,
    @Arg('order', () => ListOrder, { nullable: true, description: 'Default OLDEST_FIRST.' }) order?: ListOrder | null,
  ): Promise<Page<Dispute>> {
    return listDisputes(context.em, { status, open }, page, limit, order);
  }

  @Authorized('ADMIN')
  @Query(() => DisputeObject, { description: 'One dispute, any shop.' })
  dispute(@Arg('id', () => ID) id: string, @Ctx() context: DisputesContext): Promise<Dispute> {
    return findDispute(context.em, id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => PaymentObject, { description: 'The disputed payment.' })
  async payment(@Root() dispute: Dispute, @Ctx() context: DisputesContext): Promise<Payment> {
    return (await context.loaders.payment.load(dispute.payment.id))!;
  }

  // Not admins' only: a seller reads it through SellerDispute.dispute, like the stored fields.
  @FieldResolver(() => DisputeLiability, { description: 'Who bears the disputed amount (from sellerShare).' })
  liability(@Root() dispute: Dispute): DisputeLiability {
    return dispute.liability();
  }

  @Authorized('ADMIN')
  @FieldResolver(() => ID, { nullable: true, description: 'The refund that had already returned money when the chargeback came: the evidence to contest it with.' })
  evidenceRefundId(@Root() dispute: Dispute): string | null {
    return dispute.evidenceRefund?.id ?? null;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => Boolean, {
    description: "Whether the simulated acquirer's issuer can be made to reverse this chargeback now (simulateChargebackReversal): the simulated acquirer runs and the dispute stands charged back. Always false with a real acquirer.",
  })
  canSimulateReversal(@Root() dispute: Dispute, @Ctx() context: DisputesContext): boolean {
    return context.services.simulator !== null && chargebackReversible(dispute.status);
  }

  /**
   * Test mode only: what a defence won at a real acquirer does, on demand. The simulator tells the issuer's reversal as
   * Adyen tells CHARGEBACK_REVERSED, and it is applied through the same path as Adyen's event (one move, its journal).
   */
  @Authorized('FINANCE')
  @Mutation(() => DisputeObject, {
    description:
      "Simulated acquirer only: its issuer reverses this charged-back dispute (Adyen's CHARGEBACK_REVERSED), told and applied at once like any acquirer event: the dispute is reversed and the amount credited back. Refused with a real acquirer (SIMULATOR_ONLY) and for a dispute not charged back. Audited.",
  })
  async simulateChargebackReversal(@Arg('id', () => ID) id: string, @Ctx() context: DisputesContext): Promise<Dispute> {
    const simulator = context.services.simulator;
    if (!simulator) throw domainError('SIMULATOR_ONLY');
    const dispute = await findDispute(context.em, id);
    if (!chargebackReversible(dispute.status)) throw domainError('DISPUTE_NOT_CHARGED_BACK', dispute.status);
    await simulator.reverseChargeback({ paymentId: dispute.payment.id, reference: dispute.acquirerReference, amount: dispute.amount, currency: dispute.currency });
    const after = await context.em.findOneOrFail(Dispute, { id }, { refresh: true });
    await recordAuditNow(context.em, currentAdmin(context), {
      // On the payment, whose story lists the admin actions taken on it and its dispute.
      action: 'dispute.reversal_simulated', targetType: 'payment', targetId: dispute.payment.id, details: { disputeId: id, amount: dispute.amount, status: after.status },
    });
    return after;
  }
}
