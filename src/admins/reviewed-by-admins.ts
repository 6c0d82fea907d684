import { ManyToOne, type Opt, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import type { Admin } from './admin.entity';

/**
 * What every requested money movement reviewed by admins keeps of its review: a refund and a withdrawal are
 * the same kind of thing (asked for, then approved or rejected under four eyes: src/lifecycles/review-move.ts),
 * so their review columns and GraphQL fields are declared once, here, and inherited.
 */
// Decorated so that type-graphql hands its fields to the subclasses; no field returns it, so it is not in the schema.
@ObjectType()
export abstract class ReviewedByAdmins {
  @ManyToOne('Admin', { nullable: true })
  reviewedBy: Admin | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  rejectionReason: string | null = null;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  reviewedAt: Date | null = null;
}
