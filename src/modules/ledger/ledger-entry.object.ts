import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { LedgerAccount } from './ledger-entry.entity';

registerEnumType(LedgerAccount, { name: 'LedgerAccount' });

/**
 * What the schema shows of a ledger entry. Resolvers return LedgerEntry rows, whose properties of the same names
 * the fields read; paymentId and withdrawalId are LedgerEntryResolver's (balance.resolver.ts).
 */
@ObjectType('LedgerEntry')
export class LedgerEntryObject {
  @Field(() => String)
  journalId!: string;

  @Field(() => LedgerAccount)
  account!: LedgerAccount;

  @Field(() => String)
  kind!: string;

  @Field(() => SafeIntResolver)
  amount!: number;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}
