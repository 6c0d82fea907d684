import { Entity, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { prefixedId } from '../../shared/random-id';
import { Shop } from './shop.entity';

/** A shop's API key, stored only as its SHA-256 hash; `displayPrefix` lets people tell keys apart. */
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('key', 16);

  @ManyToOne(() => Shop)
  shop!: Shop;

  @Property({ type: 'string', unique: true, hidden: true })
  keyHash!: string;

  @Property({ type: 'string' })
  displayPrefix!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}
