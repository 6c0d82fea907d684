import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { prefixedId } from '../shared/random-id';

/** A member of our staff who may use the admin console; the bearer token is stored hashed. */
@Entity({ tableName: 'admins' })
export class Admin {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('adm', 16);

  @Property({ type: 'string', unique: true })
  email!: string;

  @Property({ type: 'string', unique: true, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}
