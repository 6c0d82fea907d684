import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { prefixedId } from '../shared/random-id';

/** A member of our staff who may use the admin console; the bearer token is stored hashed. */
@ObjectType({ description: 'A member of staff who uses the admin console (visible to admins only).' })
@Entity({ tableName: 'admins' })
export class Admin {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('adm', 16);

  @Field(() => String)
  @Property({ type: 'string', unique: true })
  email!: string;

  @Property({ type: 'string', unique: true, hidden: true })
  tokenHash!: string;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;
}
