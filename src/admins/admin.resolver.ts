import { Arg, Authorized, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { adminIdFor, currentAdmin } from '../graphql/auth-checker';
import type { GraphQLContext } from '../graphql/context';
import { Admin } from './admin.entity';
import { AdminToken } from './admin-token.entity';
import { findAdmin, findAdminToken, issueAdminToken, listAdminTokens, listAdmins, revokeAdminToken } from './admin.service';

@ObjectType({ description: 'A newly issued admin token: `token` is shown here only, never again.' })
export class IssuedAdminToken {
  @Field(() => AdminToken) adminToken!: AdminToken;
  @Field(() => String, { description: 'adm_…: send it as `Authorization: Bearer <token>`; only its hash is stored.' }) token!: string;
}

const ADMIN_ID = { nullable: true, description: 'Another admin (owners only); omit it for your own.' } as const;

/**
 * Admins and their tokens. Owners manage everyone's; every admin may see, issue and revoke their own
 * tokens (docs/admin.md). The role check that depends on `adminId` is `adminIdFor`.
 */
@Resolver(() => AdminToken)
export class AdminResolver {
  @Authorized('ADMIN')
  @Query(() => Admin, { description: 'The admin whose token calls, with their role.' })
  currentAdmin(@Ctx() context: GraphQLContext): Admin {
    return currentAdmin(context);
  }

  @Authorized('OWNER')
  @Query(() => [Admin], { description: 'Every admin, oldest first.' })
  admins(@Ctx() context: GraphQLContext): Promise<Admin[]> {
    return listAdmins(context.em);
  }

  @Authorized('ADMIN')
  @Query(() => [AdminToken], { description: "An admin's tokens, newest first, expired and revoked ones included." })
  async adminTokens(@Arg('adminId', () => ID, ADMIN_ID) adminId: string | null, @Ctx() context: GraphQLContext): Promise<AdminToken[]> {
    return listAdminTokens(context.em, await adminIdFor(context, adminId, 'adminTokens'));
  }

  @Authorized('ADMIN')
  @Mutation(() => IssuedAdminToken, { description: 'A new token (rotation), accepted for ADMIN_TOKEN_TTL_DAYS; revoke the old one once it is in use.' })
  async issueAdminToken(@Arg('adminId', () => ID, ADMIN_ID) adminId: string | null, @Ctx() context: GraphQLContext): Promise<IssuedAdminToken> {
    const admin = await findAdmin(context.em, await adminIdFor(context, adminId, 'issueAdminToken'));
    const issued = await issueAdminToken(context.em, currentAdmin(context), admin, context.services.adminTokenTtlDays);
    return { adminToken: issued.record, token: issued.token };
  }

  @Authorized('ADMIN')
  @Mutation(() => AdminToken, { description: 'Refuses the token from the next request on (yours, or, for owners, anyone’s).' })
  async revokeAdminToken(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<AdminToken> {
    const token = await findAdminToken(context.em, id);
    await adminIdFor(context, token.admin.id, 'revokeAdminToken');
    return revokeAdminToken(context.em, currentAdmin(context), token);
  }

  @FieldResolver(() => ID)
  adminId(@Root() token: AdminToken): string {
    return token.admin.id;
  }

  @FieldResolver(() => Boolean, { description: 'The token this request came with.' })
  current(@Root() token: AdminToken, @Ctx() context: GraphQLContext): boolean {
    return context.actor.kind === 'admin' && context.actor.tokenId === token.id;
  }
}
