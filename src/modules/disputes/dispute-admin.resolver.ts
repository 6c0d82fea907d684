import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../platform/graphql/context';
import { ListOrder } from '../../shared/list-order';
import { type Page, PageType } from '../../shared/pagination';
import { Payment } from '../payments';
import { Dispute, DisputeStatus } from './dispute.entity';
import { findDispute, listDisputes } from './dispute-listing';

export const DisputeList = PageType(Dispute, 'DisputeList');

/** The admins' view of disputes (chargebacks) across shops: the back office's Disputes screen (docs/admin.md). */
@Resolver(() => Dispute)
export class DisputeAdminResolver {
  @Authorized('ADMIN')
  @Query(() => DisputeList, { description: 'Disputes across shops, oldest opened first: by status, or only those still open (not won, lost or closed).' })
  disputes(
    @Arg('status', () => DisputeStatus, { nullable: true }) status: DisputeStatus | null,
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 10.' }) limit: number | null,
    @Ctx() context: GraphQLContext,
    @Arg('open', () => Boolean, { nullable: true, description: 'Only disputes still open.' }) open?: boolean | null,
    @Arg('order', () => ListOrder, { nullable: true, description: 'Default OLDEST_FIRST.' }) order?: ListOrder | null,
  ): Promise<Page<Dispute>> {
    return listDisputes(context.em, { status, open }, page, limit, order);
  }

  @Authorized('ADMIN')
  @Query(() => Dispute, { description: 'One dispute, any shop.' })
  dispute(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Dispute> {
    return findDispute(context.em, id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => Payment, { description: 'The disputed payment.' })
  async payment(@Root() dispute: Dispute, @Ctx() context: GraphQLContext): Promise<Payment> {
    return (await context.loaders.payment.load(dispute.payment.id))!;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => ID, { nullable: true, description: 'The refund that had already returned money when the chargeback came: the evidence to contest it with.' })
  evidenceRefundId(@Root() dispute: Dispute): string | null {
    return dispute.evidenceRefund?.id ?? null;
  }
}
