import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver, JSONObjectResolver } from 'graphql-scalars';

/**
 * One admin action in the append-only audit log: who, what, on which target, why, when. The database
 * refuses UPDATE, DELETE and TRUNCATE of the table, as it does for the ledger.
 */
@ObjectType({ description: 'One admin action: who, what, target, reason, when.' })
@Entity({ tableName: 'audit_log' })
export class AuditEntry {
  @Field(() => ID)
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** The acting admin's id (plain id: the audit log names no admin entity); null for the operations CLI and the service itself. */
  @Property({ type: 'string', nullable: true })
  adminId: string | null = null;

  /** Who acted, as they were known then: the admin's e-mail address, `cli`, or `system` (the service's own rule). */
  @Field(() => String, { description: "The admin's e-mail address at the time, `cli`, or `system` (the service itself, e.g. a live test's automatic refund)." })
  @Property({ type: 'string' })
  actor!: string;

  /** For example `refund.approved`, `shop.deactivated`. */
  @Field(() => String)
  @Property({ type: 'string' })
  action!: string;

  /** `payment`, `refund`, `withdrawal`, `shop`, `seller` or `admin`. */
  @Field(() => String)
  @Property({ type: 'string' })
  targetType!: string;

  @Field(() => String)
  @Property({ type: 'string' })
  targetId!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  /** `token` or `session`: what the admin acted with. Null for the CLI and for entries written before it was kept. */
  @Field(() => String, { nullable: true, description: 'What the admin acted with: `token` or `session`; null for the operations CLI.' })
  @Property({ type: 'text', nullable: true })
  credentialKind: string | null = null;

  /** The admin token's id (atk_…) or the console session's id. */
  @Field(() => String, { nullable: true, description: "The credential's id: the admin token's (atk_…) or the console session's." })
  @Property({ type: 'text', nullable: true })
  credentialId: string | null = null;

  /** Who issued that credential: an admin id (the acting admin's own, since nobody issues one for another), or `cli`. */
  @Field(() => String, { nullable: true, description: 'Who issued that credential: an admin id, or `cli` (create-admin).' })
  @Property({ type: 'text', nullable: true })
  credentialIssuedBy: string | null = null;

  /** Facts that make the entry readable on its own (amounts, related ids, the status before). */
  @Field(() => JSONObjectResolver)
  @Property({ type: 'json', columnType: 'jsonb' })
  details: Opt<Record<string, unknown>> = {};

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
