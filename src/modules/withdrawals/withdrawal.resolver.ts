import { Arg, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { SafeIntResolver } from 'graphql-scalars';
import { Admin } from '../admins';
import { AdminObject } from '../admins/web';
import { adminOrNull, currentAdmin, shopIdFor, shopScopeFor } from '../../platform/graphql/request-scope';
import type { WithdrawalsContext } from './withdrawals-context';
import { domainError } from '../../shared/errors';
import { Seller, Shop } from '../identity';
import { SellerObject, ShopObject } from '../identity/web';
import { Withdrawal, WithdrawalStatus } from './withdrawal.entity';
import { WithdrawalObject } from './withdrawal.object';
import { approveWithdrawal, listWithdrawals, markWithdrawalPaid, rejectWithdrawal, requestWithdrawal } from './withdrawal.service';
import { type Page } from '../../shared/pagination';
import { PageType } from '../../platform/graphql/pages';
import { ListOrder } from '../../shared/list-order';

export const WithdrawalList = PageType(WithdrawalObject, 'WithdrawalList');

const SHOP_ID = { nullable: true, description: "Admins name the shop; a seller's key asks for its own (omit it)." } as const;

@Resolver(() => WithdrawalObject)
export class WithdrawalResolver {
  @Authorized('SELLER', 'SUPPORT', 'FINANCE')
  @Mutation(() => WithdrawalObject, { description: 'Asks for a payout: at least 1000 cents, at most the available balance; the amount is held at once.' })
  async requestWithdrawal(
    @Arg('amount', () => SafeIntResolver, { description: 'Integer cents.' }) amount: number,
    @Arg('shopId', () => ID, SHOP_ID) shopId: string | null,
    @Ctx() context: WithdrawalsContext,
  ): Promise<Withdrawal> {
    const shop = shopIdFor(context, shopId);
    const withdrawal = await requestWithdrawal(context.em, shop, amount, adminOrNull(context));
    context.services.logger.info({ requestId: context.requestId, withdrawalId: withdrawal.id, shopId: shop, amount }, 'withdrawal requested');
    return withdrawal;
  }

  @Authorized('FINANCE')
  @Mutation(() => WithdrawalObject, { description: 'REQUESTED -> APPROVED.' })
  approveWithdrawal(@Arg('id', () => ID) id: string, @Ctx() context: WithdrawalsContext): Promise<Withdrawal> {
    return approveWithdrawal(context.em, currentAdmin(context), id);
  }

  @Authorized('FINANCE')
  @Mutation(() => WithdrawalObject, { description: 'REQUESTED or APPROVED -> REJECTED; the held amount returns to the balance.' })
  rejectWithdrawal(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: WithdrawalsContext): Promise<Withdrawal> {
    return rejectWithdrawal(context.em, currentAdmin(context), id, reason);
  }

  @Authorized('FINANCE')
  @Mutation(() => WithdrawalObject, {
    description: "APPROVED -> PAID, with the bank transfer reference. Refused while the seller's balance after approved refunds is negative, unless overrideReason says why (audited).",
  })
  async markWithdrawalPaid(
    @Arg('id', () => ID) id: string,
    @Arg('reference', () => String) reference: string,
    @Arg('overrideReason', () => String, { nullable: true, description: 'Why the payout stands although the balance after refund holds is negative (the transfer had already left).' }) overrideReason: string | null,
    @Ctx() context: WithdrawalsContext,
  ): Promise<Withdrawal> {
    const admin = currentAdmin(context);
    const withdrawal = await markWithdrawalPaid(context.em, admin, id, reference, overrideReason ?? null);
    context.services.logger.info({ requestId: context.requestId, withdrawalId: id, adminId: admin.id }, 'withdrawal paid');
    return withdrawal;
  }

  @Authorized('SELLER', 'ADMIN')
  @Query(() => WithdrawalList, { description: 'Withdrawals, oldest first: the queue for admins (all shops unless shopId), its own for a seller.' })
  async withdrawals(
    @Arg('status', () => WithdrawalStatus, { nullable: true }) status: WithdrawalStatus | null,
    @Arg('shopId', () => ID, { nullable: true }) shopId: string | null,
    @Arg('page', () => Int, { nullable: true }) page: number | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100, default 10.' }) limit: number | null,
    @Ctx() context: WithdrawalsContext,
    @Arg('order', () => ListOrder, { nullable: true, description: 'Default OLDEST_FIRST.' }) order?: ListOrder | null,
  ): Promise<Page<Withdrawal>> {
    // A dashboard session reads its seller's withdrawals, from every shop, whether or not one is live.
    let sellerId: string | null = context.actor.kind === 'session' && !shopId ? context.actor.sellerId : null;
    const shopScope = sellerId ? null : shopScopeFor(context, shopId);
    if (shopScope) {
      const shop = await context.loaders.shop.load(shopScope);
      if (!shop) throw domainError('SHOP_NOT_FOUND');
      sellerId = shop.seller.id;
    }
    return listWithdrawals(context.em, { status, sellerId }, page, limit, order);
  }

  @FieldResolver(() => ShopObject)
  async shop(@Root() withdrawal: Withdrawal, @Ctx() context: WithdrawalsContext): Promise<Shop> {
    return (await context.loaders.shop.load(withdrawal.shop.id))!;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => SellerObject)
  async seller(@Root() withdrawal: Withdrawal, @Ctx() context: WithdrawalsContext): Promise<Seller> {
    return (await context.loaders.seller.load(withdrawal.seller.id))!;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => AdminObject, { nullable: true, description: "The admin who asked for it; null when the seller's key did." })
  requestedBy(@Root() withdrawal: Withdrawal, @Ctx() context: WithdrawalsContext): Promise<Admin | null> | null {
    return withdrawal.requestedBy ? context.loaders.admin.load(withdrawal.requestedBy.id) : null;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => AdminObject, { nullable: true })
  reviewedBy(@Root() withdrawal: Withdrawal, @Ctx() context: WithdrawalsContext): Promise<Admin | null> | null {
    return withdrawal.reviewedBy ? context.loaders.admin.load(withdrawal.reviewedBy.id) : null;
  }
}
