import { Arg, Args, Authorized, Ctx, Field, FieldResolver, ID, InputType, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { BigIntResolver, DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import type { LedgerContext } from './ledger-context';
import type { BalanceSummary } from './balance-summary';
import type { Cents } from '../../shared/cents';
import { type Page } from '../../shared/pagination';
import { PageArgs, PageType } from '../../platform/graphql/pages';
import { Balance } from './balance.resolver';
import {
  BALANCE_LINE_KINDS, balanceLines, dailyVolume, monthlyStatement, statementLines, statementMonths,
  type BalanceLine, type BalanceLineKind, type DayVolume, type MonthlyStatement, type StatementTotal,
} from './balance-lines';

@ObjectType({ description: "A line that moved the seller's available balance (or a payout of held money), with the balance right after it." })
export class BalanceTransaction implements BalanceLine {
  @Field(() => ID, { description: 'The ledger entry.' }) id!: string;
  @Field(() => String, { description: `One of: ${BALANCE_LINE_KINDS.join(', ')}.` }) kind!: BalanceLineKind;
  @Field(() => SafeIntResolver, { description: 'Signed integer cents by which it moved the available balance (0 for a payout).' }) amount!: number;
  @Field(() => SafeIntResolver, { nullable: true, description: 'A payout: the cents sent to the bank account (held since the withdrawal was requested).' }) paidOut!: number | null;
  @Field(() => BigIntResolver, { description: 'The available balance right after this line, in cents (computed from the balance checkpoints).' }) runningBalance!: Cents;
  @Field(() => DateTimeISOResolver) createdAt!: Date;
  @Field(() => ID, { nullable: true }) paymentId!: string | null;
  @Field(() => ID, { nullable: true }) withdrawalId!: string | null;
  @Field(() => ID, { nullable: true }) refundId!: string | null;
}

export const BalanceTransactionList = PageType(BalanceTransaction, 'BalanceTransactionList');

@InputType({ description: 'Every criterion given must match.' })
export class BalanceTransactionFilter {
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created at or after.' }) createdFrom?: Date | null;
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created before.' }) createdTo?: Date | null;
  @Field(() => [String], { nullable: true, description: `Only these types (${BALANCE_LINE_KINDS.join(', ')}); all when empty.` }) kinds?: string[] | null;
}

@ObjectType({ description: "A month's lines of one type." })
export class BalanceStatementTotal implements StatementTotal {
  @Field(() => String) kind!: BalanceLineKind;
  @Field(() => BigIntResolver, { description: 'Signed cents: their effect on the available balance.' }) amount!: Cents;
  @Field(() => BigIntResolver, { description: 'Payouts: the cents sent to the bank.' }) paidOut!: Cents;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'A monthly statement (UTC): opening balance plus the lines of the month is the closing balance, which is the next month\'s opening.' })
export class BalanceStatement implements MonthlyStatement {
  sellerId!: string;
  @Field(() => String, { description: 'YYYY-MM.' }) month!: string;
  @Field(() => DateTimeISOResolver) from!: Date;
  @Field(() => DateTimeISOResolver, { description: 'The first instant after the month.' }) to!: Date;
  @Field(() => BigIntResolver) opening!: Cents;
  @Field(() => BigIntResolver) closing!: Cents;
  @Field(() => [BalanceStatementTotal]) totals!: BalanceStatementTotal[];
  @Field(() => Int) lineCount!: number;
}

@ObjectType({ description: 'The months a seller has statements of, YYYY-MM (UTC): from the account\'s first month to the month under way.' })
export class StatementMonths {
  @Field(() => String, { description: 'The UTC month the account was created in.' }) first!: string;
  @Field(() => String, { description: 'The month under way (its statement is provisional until it ends).' }) last!: string;
}

@ObjectType({ description: 'Gross volume and count of charged payments on one UTC day (by the day they were created).' })
export class DailyVolume implements DayVolume {
  @Field(() => String, { description: 'YYYY-MM-DD.' }) day!: string;
  @Field(() => BigIntResolver) gross!: Cents;
  @Field(() => Int) count!: number;
}

/** The seller dashboard's money screens (docs/dashboard.md): balance transactions, monthly statements, the overview chart. */
@Resolver(() => Balance)
export class BalanceLinesResolver {
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => BalanceTransactionList, { description: 'Every line that moved the available balance, and payouts, newest first, each with the balance right after it.' })
  transactions(
    @Root() balance: BalanceSummary,
    @Arg('filter', () => BalanceTransactionFilter, { nullable: true }) filter: BalanceTransactionFilter | null,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: LedgerContext,
  ): Promise<Page<BalanceLine>> {
    return balanceLines(context.em, balance.sellerId, { from: filter?.createdFrom, to: filter?.createdTo, kinds: filter?.kinds }, page, limit);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => BalanceStatement, { description: 'The statement of a calendar month (UTC), YYYY-MM, from the account\'s first month to the month under way (statementMonths).' })
  async statement(@Root() balance: BalanceSummary, @Arg('month', () => String) month: string, @Ctx() context: LedgerContext): Promise<BalanceStatement> {
    return { sellerId: balance.sellerId, ...(await monthlyStatement(context.em, balance.sellerId, month)) };
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => StatementMonths, { description: 'The months `statement` answers; earlier ones are MONTH_BEFORE_ACCOUNT, later ones MONTH_NOT_BEGUN.' })
  statementMonths(@Root() balance: BalanceSummary, @Ctx() context: LedgerContext): Promise<StatementMonths> {
    return statementMonths(context.em, balance.sellerId);
  }

  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => [DailyVolume], { description: 'Gross volume and payment count per UTC day, the last `days` days (today included).' })
  dailyVolume(@Root() balance: BalanceSummary, @Arg('days', () => Int, { nullable: true, description: '1 to 366, default 30.' }) days: number | null, @Ctx() context: LedgerContext): Promise<DayVolume[]> {
    return dailyVolume(context.em, balance.sellerId, days ?? 30);
  }
}

@Resolver(() => BalanceStatement)
export class BalanceStatementResolver {
  @FieldResolver(() => BalanceTransactionList, { description: "The month's lines, oldest first, each with the balance right after it (counted from the opening)." })
  lines(@Root() statement: BalanceStatement, @Args(() => PageArgs) { page, limit }: PageArgs, @Ctx() context: LedgerContext): Promise<Page<BalanceLine>> {
    return statementLines(context.em, statement.sellerId, statement, page, limit);
  }
}
