import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { Admin } from '../admins';
import { AdminObject } from '../admins/web';
import { adminOrNull, currentAdmin, currentSession } from '../../platform/graphql/request-scope';
import type { RefundsContext } from './refunds-context';
import { type Payment } from '../payments';
import { PaymentObject } from '../payments/web';
import { Refund, RefundStatus } from './refund.entity';
import { RefundObject } from './refund.object';
import { approveRefund, findRefund, isPastReviewWindow, listRefunds, refundAgeSeconds, rejectRefund, requestRefund } from './refund.service';
import { type Page } from '../../shared/pagination';
import { PageType } from '../../platform/graphql/pages';
import { ListOrder } from '../../shared/list-order';

export const RefundList = PageType(RefundObject, 'RefundList');

/** Refunds are decided by admins only (spec: no refund endpoint): support or the seller's dashboard session records a request, finance decides. */
@Resolver(() => RefundObject)
export class RefundResolver {
  @Authorized('ADMIN')
  @Query(() => RefundList, { description: 'The refund queue, oldest first (status REQUESTED: waiting for review).' })
  refunds(
    @Arg('status', () => RefundStatus, { nullable: true }) status: RefundStatus | null,
    @Arg('paymentId', () => ID, { nullable: true }) paymentId: string | null,
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 10.' }) limit: number | null,
    @Ctx() context: RefundsContext,
    @Arg('order', () => ListOrder, { nullable: true, description: 'Default OLDEST_FIRST (nearest the review deadline).' }) order?: ListOrder | null,
  ): Promise<Page<Refund>> {
    return listRefunds(context.em, { status, paymentId }, page, limit, order);
  }

  @Authorized('ADMIN')
  @Query(() => RefundObject)
  refund(@Arg('id', () => ID) id: string, @Ctx() context: RefundsContext): Promise<Refund> {
    return findRefund(context.em, id);
  }

  @Authorized('SESSION', 'SUPPORT', 'FINANCE')
  @Mutation(() => RefundObject, {
    description:
      "Records a seller's refund request for a completed payment: by support, or by the seller in the dashboard for their own payment. Any amount up to what remains (requests still open count); the whole remainder when no amount is given.",
  })
  async requestRefund(
    @Arg('paymentId', () => ID) paymentId: string,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: RefundsContext,
    @Arg('amount', () => SafeIntResolver, { nullable: true, description: 'Integer cents; omitted: all that remains.' }) amount?: number | null,
  ): Promise<Refund> {
    const admin = adminOrNull(context);
    // Sellers still cannot refund: a session only asks, for a payment of one of its seller's shops; finance decides.
    const ownSeller = admin ? null : currentSession(context).sellerId;
    const refund = await requestRefund(context.em, context.services.refunds.chargebackStands, admin, paymentId, reason, ownSeller, amount ?? null);
    context.services.logger.info({ requestId: context.requestId, refundId: refund.id, paymentId, adminId: admin?.id ?? null }, 'refund requested');
    return refund;
  }

  @Authorized('FINANCE')
  @Mutation(() => RefundObject, { description: 'Approves a requested refund; a background job then refunds the card and debits the seller.' })
  async approveRefund(
    @Arg('id', () => ID) id: string,
    @Arg('note', () => String, { nullable: true, description: 'Optional, kept in the audit log.' }) note: string | null,
    @Ctx() context: RefundsContext,
  ): Promise<Refund> {
    const admin = currentAdmin(context);
    const refund = await approveRefund(context.em, context.services.refunds.chargebackStands, admin, id, note);
    context.services.logger.info({ requestId: context.requestId, refundId: refund.id, adminId: admin.id }, 'refund approved');
    context.services.refunds.enqueue(refund.id);
    return refund;
  }

  @Authorized('FINANCE')
  @Mutation(() => RefundObject, { description: 'Rejects a requested refund with the reason the seller will be told.' })
  rejectRefund(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: RefundsContext): Promise<Refund> {
    return rejectRefund(context.em, currentAdmin(context), id, reason);
  }

  @FieldResolver(() => PaymentObject)
  async payment(@Root() refund: Refund, @Ctx() context: RefundsContext): Promise<Payment> {
    return (await context.loaders.payment.load(refund.payment.id))!;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => AdminObject, { nullable: true, description: 'Who recorded the request; null when the seller asked from the dashboard.' })
  requestedBy(@Root() refund: Refund, @Ctx() context: RefundsContext): Promise<Admin | null> | null {
    return refund.requestedBy ? context.loaders.admin.load(refund.requestedBy.id) : null;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => AdminObject, { nullable: true, description: 'Who approved or rejected it.' })
  reviewedBy(@Root() refund: Refund, @Ctx() context: RefundsContext): Promise<Admin | null> | null {
    return refund.reviewedBy ? context.loaders.admin.load(refund.reviewedBy.id) : null;
  }

  @FieldResolver(() => Int, { description: 'Seconds since the request was recorded.' })
  ageSeconds(@Root() refund: Refund): number {
    return refundAgeSeconds(refund);
  }

  @FieldResolver(() => Boolean, { description: 'Still REQUESTED more than 24 hours after it was recorded (spec: reviewed within 24 hours).' })
  pastReviewWindow(@Root() refund: Refund): boolean {
    return isPastReviewWindow(refund);
  }
}
