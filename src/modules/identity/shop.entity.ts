import { ArrayType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { prefixedId } from '../../shared/random-id';
import { Seller } from './seller.entity';

export enum ShopStatus {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
}
registerEnumType(ShopStatus, { name: 'ShopStatus' });

/**
 * A seller's shop. "One live shop per seller" is a partial unique index (see the initial migration),
 * so a deleted shop can be replaced, as the spec's key-rotation procedure requires.
 */
@ObjectType()
@Entity({ tableName: 'shops' })
export class Shop {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('shop', 16);

  @ManyToOne(() => Seller)
  seller!: Seller;

  @Field(() => String)
  @Property({ type: 'string' })
  name!: string;

  @Field(() => ShopStatus)
  @Enum({ items: () => ShopStatus })
  status: Opt<ShopStatus> = ShopStatus.ACTIVE;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  webhookUrl: string | null = null;

  @Field(() => [String], { description: 'Webhook events sent besides payment.completed (always sent): payment.failed, payment.refunded, refund.failed, withdrawal.paid, withdrawal.rejected.' })
  @Property({ type: ArrayType, columnType: 'text[]' })
  webhookEvents: Opt<string[]> = [];

  /** Kept in clear because every delivery is signed with it; never exposed after creation. */
  @Property({ type: 'string', hidden: true, lazy: true })
  webhookSecret!: string;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt: Date | null = null;

  /** Deleted by an owner admin, not by the seller: the seller cannot open a new shop from the dashboard. */
  @Property({ type: 'boolean' })
  deletedByAdmin: Opt<boolean> = false;
}
