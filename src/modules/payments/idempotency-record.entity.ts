import { Entity, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Shop } from '../identity';
import { Payment } from './payment.entity';
import type { CreatePaymentCommand } from './payment-rules';
import type { StoredPaymentView } from './payment-view';

/**
 * The first answer to a create request that carried an `Idempotency-Key`, kept for 24 hours.
 * Unique per (shop, key): the database, not only the code, prevents a second payment.
 */
@Entity({ tableName: 'idempotency_records' })
@Unique({ name: 'idempotency_records_shop_key_unique', properties: ['shop', 'key'] })
export class IdempotencyRecord {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Shop)
  shop!: Shop;

  @Property({ type: 'string', length: 255 })
  key!: string;

  /** The validated request, to tell a replay from a different request reusing the key. */
  @Property({ type: 'json' })
  request!: CreatePaymentCommand;

  /** The payment as first answered (`json` keeps metadata key order), so a replay answers byte for byte the same. */
  @Property({ type: 'json', columnType: 'json' })
  response!: StoredPaymentView;

  @ManyToOne(() => Payment)
  payment!: Payment;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
