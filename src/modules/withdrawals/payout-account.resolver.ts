import { Arg, Authorized, Ctx, Field, FieldResolver, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { Seller } from '../identity';
import { CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, reauthenticated, SellerObject } from '../identity/web';
import { recordAuditApart } from '../audit';
import { currentAdmin, currentSession } from '../../platform/graphql/request-scope';
import type { WithdrawalsContext } from './withdrawals-context';
import { maskedPayoutAccount, payoutAccountNumber, setPayoutAccount, type MaskedPayoutAccount } from './payout-account';

@ObjectType({ description: "Where the seller's withdrawals are paid; the bank account number masked, except to finance." })
export class PayoutAccount {
  @Field(() => String) holder!: string;
  @Field(() => String, { description: 'The last four characters, e.g. •••• 3000.' }) accountNumberMasked!: string;
  /** The seller it belongs to: finance's whole-number field opens its sealed number. */
  seller?: Seller;
}

/** The Withdrawals screen's payout account (docs/dashboard.md), and finance's view of the whole number. */
@Resolver(() => SellerObject)
export class PayoutAccountResolver {
  @Authorized('SESSION')
  @Mutation(() => PayoutAccount, {
    description:
      "Sets where the signed-in seller's withdrawals are paid; the number is answered masked, now and later. Needs re-authentication: `currentPassword`, or `code` with two-factor on.",
  })
  setPayoutAccount(
    @Arg('holder', () => String, { description: 'The account holder’s name.' }) holder: string,
    @Arg('accountNumber', () => String, { description: 'IBAN or local account number; spaces and dashes are ignored.' }) accountNumber: string,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: WithdrawalsContext,
  ): Promise<MaskedPayoutAccount> {
    const confirm = () => reauthenticated(context, { currentPassword, code });
    return setPayoutAccount(context.em, context.services.accounts.secrets, currentSession(context).sellerId, holder, accountNumber, confirm);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => PayoutAccount, { nullable: true, description: 'Null until the seller sets it in the dashboard.' })
  payoutAccount(@Root() seller: Seller): (MaskedPayoutAccount & { seller: Seller }) | null {
    const masked = maskedPayoutAccount(seller);
    return masked && { ...masked, seller };
  }
}

/** The whole number, for finance's bank transfer only; every read is in the audit log. */
@Resolver(() => PayoutAccount)
export class PayoutAccountNumberResolver {
  @Authorized('FINANCE')
  @FieldResolver(() => String, { nullable: true, description: 'The whole bank account number, for the bank transfer (finance only; each read is audited as payout_account.read).' })
  async accountNumber(@Root() account: PayoutAccount, @Ctx() context: WithdrawalsContext): Promise<string | null> {
    if (!account.seller) return null;
    await recordAuditApart(context.em, currentAdmin(context), { action: 'payout_account.read', targetType: 'seller', targetId: account.seller.id });
    return payoutAccountNumber(context.services.accounts.secrets, account.seller);
  }
}
