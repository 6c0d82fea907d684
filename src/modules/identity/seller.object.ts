import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { AccountStatus } from './account-status';
import { SellerStatus } from './seller.entity';

registerEnumType(AccountStatus, { name: 'AccountStatus', description: 'Decides the largest payment a seller may create.' });

registerEnumType(SellerStatus, { name: 'SellerStatus' });

/** The GraphQL Seller. Resolvers return Seller entities; each field reads the entity's property of the same name. */
@ObjectType('Seller')
export class SellerObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => SellerStatus)
  status!: SellerStatus;

  @Field(() => AccountStatus, { description: 'Caps the amount of each payment (docs/admin.md); set by owner admins.' })
  accountStatus!: AccountStatus;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  emailVerifiedAt!: Date | null;
}
