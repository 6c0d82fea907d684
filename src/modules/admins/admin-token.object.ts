import { Field, ID, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';

/** The GraphQL AdminToken. Resolvers return AdminToken entities; each field reads the entity's property of the same name. */
@ObjectType('AdminToken', { description: "One of an admin's bearer tokens (the token itself is shown once, when issued)." })
export class AdminTokenObject {
  @Field(() => ID)
  id!: string;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { description: 'Refused from this moment on.' })
  expiresAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  revokedAt!: Date | null;
}
