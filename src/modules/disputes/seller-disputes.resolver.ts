import { Args, Authorized, Ctx, Field, FieldResolver, ObjectType, Resolver, Root } from 'type-graphql';
import type { DisputesContext } from './disputes-context';
import { type LedgerEntry } from '../ledger';
import { LedgerEntryObject } from '../ledger/web';
import { type Payment } from '../payments';
import { PaymentObject } from '../payments/web';
import { pageOf, type Page } from '../../shared/pagination';
import { PageArgs, PageType } from '../../platform/graphql/pages';
import { Seller } from '../identity';
import { SellerObject } from '../identity/web';
import type { Dispute } from './dispute.entity';
import { DisputeObject } from './dispute.object';
import { disputeJournalLines, sellerDisputes } from './dispute-history';

/** One of the seller's disputes as the dashboard shows it: the dispute, its payment, and its lines on the balance. */
@ObjectType({ description: "A dispute against one of the seller's payments, with that payment and what the dispute did to the seller's balance." })
export class SellerDispute {
  @Field(() => DisputeObject) dispute!: Dispute;
}

export const SellerDisputeList = PageType(SellerDispute, 'SellerDisputeList');

/** The seller's disputes (the dashboard's Disputes screen, docs/dashboard.md) and what each did to the balance. */
@Resolver(() => SellerObject)
export class SellerDisputesResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => SellerDisputeList, { description: 'Disputes (chargebacks) against payments of every shop of the seller, past and present, newest first.' })
  async disputes(@Root() seller: Seller, @Args(() => PageArgs) { page, limit }: PageArgs, @Ctx() context: DisputesContext): Promise<Page<SellerDispute>> {
    const found = await sellerDisputes(context.em, seller.id, page, limit);
    return pageOf(found.pagination, found.items.map((dispute) => ({ dispute })), found.pagination.total);
  }
}

@Resolver(() => SellerDispute)
export class DisputeFieldsResolver {
  @FieldResolver(() => PaymentObject, { description: 'The disputed payment.' })
  async payment(@Root() item: SellerDispute, @Ctx() context: DisputesContext): Promise<Payment> {
    return (await context.loaders.payment.load(item.dispute.payment.id))!;
  }

  @FieldResolver(() => [LedgerEntryObject], {
    description: "What the dispute did to the seller's balance: its journal lines on the seller's balance (chargeback, chargeback_reversed, second_chargeback, dispute_won, dispute_share), oldest first. None when the platform bears it.",
  })
  balanceEntries(@Root() item: SellerDispute, @Ctx() context: DisputesContext): Promise<LedgerEntry[]> {
    return disputeJournalLines(context.em, item.dispute.id);
  }
}
