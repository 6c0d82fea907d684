import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver, JSONObjectResolver } from 'graphql-scalars';

/** The GraphQL AuditEntry. Resolvers return AuditEntry entities; each field reads the entity's property of the same name. */
@ObjectType('AuditEntry', { description: 'One admin action: who, what, target, reason, when.' })
export class AuditEntryObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "The admin's e-mail address at the time, `cli`, or `system` (the service itself, e.g. a live test's automatic refund)." })
  actor!: string;

  @Field(() => String)
  action!: string;

  @Field(() => String)
  targetType!: string;

  @Field(() => String)
  targetId!: string;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'What the admin acted with: `token` or `session`; null for the operations CLI.' })
  credentialKind!: string | null;

  @Field(() => String, { nullable: true, description: "The credential's id: the admin token's (atk_…) or the console session's." })
  credentialId!: string | null;

  @Field(() => String, { nullable: true, description: 'Who issued that credential: an admin id, or `cli` (create-admin).' })
  credentialIssuedBy!: string | null;

  @Field(() => JSONObjectResolver)
  details!: Record<string, unknown>;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}
