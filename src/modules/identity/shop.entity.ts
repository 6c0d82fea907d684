import { ArrayType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { prefixedId } from '../../shared/random-id';
import { Seller } from './seller.entity';

export enum ShopStatus {
  ACTIVE = 'active',
  INACTIVE = 'inactive',
}

/**
 * A seller's shop. "One live shop per seller" is a partial unique index (see the initial migration),
 * so a deleted shop can be replaced, as the spec's key-rotation procedure requires.
 */
@Entity({ tableName: 'shops' })
export class Shop {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('shop', 16);

  @ManyToOne(() => Seller)
  seller!: Seller;

  @Property({ type: 'string' })
  name!: string;

  @Enum({ items: () => ShopStatus })
  status: Opt<ShopStatus> = ShopStatus.ACTIVE;

  @Property({ type: 'text', nullable: true })
  webhookUrl: string | null = null;

  @Property({ type: ArrayType, columnType: 'text[]' })
  webhookEvents: Opt<string[]> = [];

  /** Kept in clear because every delivery is signed with it; never exposed after creation. */
  @Property({ type: 'string', hidden: true, lazy: true })
  webhookSecret!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  deletedAt: Date | null = null;

  /** Deleted by an owner admin, not by the seller: the seller cannot open a new shop from the dashboard. */
  @Property({ type: 'boolean' })
  deletedByAdmin: Opt<boolean> = false;
}
