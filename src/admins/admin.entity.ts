import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { prefixedId } from '../shared/random-id';
import { AdminRole } from './admin-role';

/** A member of our staff who may use the admin console, with one role; bearer tokens are in AdminToken. */
@ObjectType({ description: 'A member of staff who uses the admin console (visible to admins only).' })
@Entity({ tableName: 'admins' })
export class Admin {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('adm', 16);

  @Field(() => String)
  @Property({ type: 'string', unique: true })
  email!: string;

  @Field(() => AdminRole)
  @Enum({ items: () => AdminRole })
  role!: AdminRole;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  /** Set by `revoke-admin`: every token of the admin is refused. */
  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}
