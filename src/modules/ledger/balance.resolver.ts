import { Arg, Args, Authorized, Ctx, Field, FieldResolver, ID, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { BigIntResolver } from 'graphql-scalars';
import type { Cents } from '../../shared/cents';
import type { EntityManager } from '@mikro-orm/postgresql';
import { shopIdFor } from '../../platform/graphql/request-scope';
import type { LedgerContext } from './ledger-context';
import type { BalanceSummary } from './balance-summary';
import { domainError } from '../../shared/errors';
import { LedgerAccount, LedgerEntry } from './ledger-entry.entity';
import { LedgerEntryObject } from './ledger-entry.object';
import { type Page, pageOf, validPageRequest, windowOf } from '../../shared/pagination';
import { PageArgs, PageType } from '../../platform/graphql/pages';

export const LedgerEntryList = PageType(LedgerEntryObject, 'LedgerEntryList');

/** A seller's money, as sums of its ledger entries (never counters), in integer cents. */
@ObjectType({
  description: "A seller's balance: sums of its ledger entries, in integer cents (BigInt: a number up to 2^53-1, a string of digits beyond).",
})
export class Balance implements BalanceSummary {
  @Field(() => ID)
  sellerId!: string;

  @Field(() => BigIntResolver, { description: 'What the ledger holds for the seller now (pending withdrawals are already held out of it). May be negative after refunds.' })
  available!: Cents;

  @Field(() => BigIntResolver, { description: 'Approved refunds not yet carried out: promised to cardholders, so a withdrawal may take at most available less this.' })
  refundsHeld!: Cents;

  @Field(() => BigIntResolver, { description: 'Requested or approved withdrawals, held until paid or rejected.' })
  pendingWithdrawals!: Cents;

  @Field(() => BigIntResolver, { description: 'Withdrawals paid out, lifetime.' })
  paidOut!: Cents;

  @Field(() => BigIntResolver, { description: 'Amounts of completed payments, lifetime.' })
  gross!: Cents;

  @Field(() => BigIntResolver, { description: 'Fees (15% of each completed payment), lifetime. Not returned on refund.' })
  fees!: Cents;

  @Field(() => BigIntResolver, { description: 'Refunds taken back from the balance, lifetime.' })
  refunds!: Cents;
}

/** A seller's balance entries, newest first. */
export async function sellerLedger(em: EntityManager, sellerId: string, page?: number | null, limit?: number | null): Promise<Page<LedgerEntry>> {
  const request = validPageRequest(page, limit);
  const [items, total] = await em.findAndCount(
    LedgerEntry,
    { sellerId, account: LedgerAccount.SELLER_BALANCE },
    { orderBy: { id: 'desc' }, ...windowOf(request) },
  );
  return pageOf(request, items, total);
}

@Resolver(() => Balance)
export class BalanceResolver {
  @Authorized('SELLER', 'ADMIN')
  @Query(() => Balance, { description: "A shop's seller balance: a seller's key sees its own (omit shopId), admins any shop's." })
  async balance(@Arg('shopId', () => ID, { nullable: true }) shopId: string | null, @Ctx() context: LedgerContext): Promise<BalanceSummary> {
    // A dashboard session reads its seller's balance whether or not a shop is live (docs/dashboard.md, "History across shops").
    if (!shopId && context.actor.kind === 'session') return context.loaders.balanceOfSeller.load(context.actor.sellerId);
    const shop = await context.loaders.shop.load(shopIdFor(context, shopId));
    if (!shop) throw domainError('SHOP_NOT_FOUND');
    return context.loaders.balanceOfSeller.load(shop.seller.id);
  }

  @FieldResolver(() => LedgerEntryList, { description: 'The seller_balance entries behind these sums, newest first.' })
  entries(
    @Root() balance: BalanceSummary,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: LedgerContext,
  ): Promise<Page<LedgerEntry>> {
    return sellerLedger(context.em, balance.sellerId, page, limit);
  }
}

@Resolver(() => LedgerEntryObject)
export class LedgerEntryResolver {
  @FieldResolver(() => ID, { nullable: true, description: 'The payment the movement belongs to (payment, fee, refund).' })
  paymentId(@Root() entry: LedgerEntry): string | null {
    return entry.paymentId;
  }

  @FieldResolver(() => ID, { nullable: true, description: 'The withdrawal the movement belongs to (hold, release, payout).' })
  withdrawalId(@Root() entry: LedgerEntry): string | null {
    return entry.withdrawalId;
  }
}
