import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { AdminRole } from './admin-role';

registerEnumType(AdminRole, {
  name: 'AdminRole',
  description: 'support: read, search, record refund and withdrawal requests; finance: approve, reject, mark paid; owner: admins, sellers, shops.',
});

/** The GraphQL Admin. Resolvers return Admin entities; each field reads the entity's property of the same name. */
@ObjectType('Admin', { description: 'A member of staff who uses the admin console (visible to admins only).' })
export class AdminObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  email!: string;

  @Field(() => AdminRole)
  role!: AdminRole;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  revokedAt!: Date | null;
}
