import { Arg, Authorized, Ctx, Field, FieldResolver, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { currentSession } from '../graphql/auth-checker';
import type { GraphQLContext } from '../graphql/context';
import { Seller } from '../shops/seller.entity';
import { maskedPayoutAccount, setPayoutAccount, type MaskedPayoutAccount } from './payout-account';

@ObjectType({ description: "Where the seller's withdrawals are paid; the bank account number only masked." })
export class PayoutAccount {
  @Field(() => String) holder!: string;
  @Field(() => String, { description: 'The last four characters, e.g. •••• 3000.' }) accountNumberMasked!: string;
}

/** The Withdrawals screen's payout account (docs/dashboard.md). */
@Resolver(() => Seller)
export class PayoutAccountResolver {
  @Authorized('SESSION')
  @Mutation(() => PayoutAccount, { description: "Sets where the signed-in seller's withdrawals are paid; the number is answered masked, now and later." })
  setPayoutAccount(
    @Arg('holder', () => String, { description: 'The account holder’s name.' }) holder: string,
    @Arg('accountNumber', () => String, { description: 'IBAN or local account number; spaces and dashes are ignored.' }) accountNumber: string,
    @Ctx() context: GraphQLContext,
  ): Promise<MaskedPayoutAccount> {
    return setPayoutAccount(context.em, currentSession(context).sellerId, holder, accountNumber);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => PayoutAccount, { nullable: true, description: 'Null until the seller sets it in the dashboard.' })
  payoutAccount(@Root() seller: Seller): MaskedPayoutAccount | null {
    return maskedPayoutAccount(seller);
  }
}
