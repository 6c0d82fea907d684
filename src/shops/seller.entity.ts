import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { prefixedId } from '../shared/random-id';
import { AccountStatus } from './account-status';

export enum SellerStatus {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
  SUSPENDED = 'suspended',
}
registerEnumType(SellerStatus, { name: 'SellerStatus' });

/** A seller account. It owns at most one live shop (spec: one shop per seller account). */
@ObjectType()
@Entity({ tableName: 'sellers' })
export class Seller {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('sel', 16);

  @Field(() => String)
  @Property({ type: 'string', unique: true })
  email!: string;

  @Field(() => SellerStatus)
  @Enum({ items: () => SellerStatus })
  status: Opt<SellerStatus> = SellerStatus.ACTIVE;

  @Field(() => AccountStatus, { description: 'Caps the amount of each payment (docs/admin.md); set by owner admins.' })
  @Enum({ items: () => AccountStatus })
  accountStatus: Opt<AccountStatus> = AccountStatus.NEW;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
