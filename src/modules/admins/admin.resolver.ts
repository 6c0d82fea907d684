import { Arg, Authorized, Ctx, Field, FieldResolver, ID, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { recordRefusal } from '../audit';
import { currentAdmin } from '../../platform/graphql/request-scope';
import { adminIdFor } from './admin-refusal';
import type { AdminsContext } from './admins-context';
import { domainError } from '../../shared/errors';
import { Admin } from './admin.entity';
import { AdminToken } from './admin-token.entity';
import { AdminObject } from './admin.object';
import { AdminTokenObject } from './admin-token.object';
import { findAdminToken, issueAdminToken, listAdminTokens, listAdmins, revokeAdminToken, tokenIssuer } from './admin.service';

@ObjectType({ description: 'A newly issued admin token: `token` is shown here only, never again.' })
export class IssuedAdminToken {
  @Field(() => AdminTokenObject) adminToken!: AdminToken;
  @Field(() => String, { description: 'adm_…: send it as `Authorization: Bearer <token>`; only its hash is stored.' }) token!: string;
}

const ADMIN_ID = { nullable: true, description: 'Another admin (owners only); omit it for your own.' } as const;

/**
 * Admins and their tokens. Every admin may see, issue and revoke their own tokens; owners may also list and
 * revoke anyone's, but nobody issues a token for another admin (docs/admin.md): each admin's credentials are
 * their own. The role check that depends on `adminId` is `adminIdFor`.
 */
@Resolver(() => AdminTokenObject)
export class AdminResolver {
  @Authorized('ADMIN')
  @Query(() => AdminObject, { description: 'The admin whose token calls, with their role.' })
  currentAdmin(@Ctx() context: AdminsContext): Admin {
    return currentAdmin(context);
  }

  @Authorized('OWNER')
  @Query(() => [AdminObject], { description: 'Every admin, oldest first.' })
  admins(@Ctx() context: AdminsContext): Promise<Admin[]> {
    return listAdmins(context.em);
  }

  @Authorized('ADMIN')
  @Query(() => [AdminTokenObject], { description: "An admin's tokens, newest first, expired and revoked ones included." })
  async adminTokens(@Arg('adminId', () => ID, ADMIN_ID) adminId: string | null, @Ctx() context: AdminsContext): Promise<AdminToken[]> {
    return listAdminTokens(context.em, await adminIdFor(context, adminId, 'adminTokens'));
  }

  @Authorized('ADMIN')
  @Mutation(() => IssuedAdminToken, { description: 'A new token of your own (rotation), accepted for ADMIN_TOKEN_TTL_DAYS; revoke the old one once it is in use.' })
  async issueAdminToken(
    @Arg('adminId', () => ID, {
      nullable: true,
      description: 'Your own id, or omit it: a token is never issued for another admin (ADMIN_TOKEN_NOT_YOURS).',
      deprecationReason: 'A token is issued to the calling admin only: omit it.',
    })
    adminId: string | null,
    @Ctx() context: AdminsContext,
  ): Promise<IssuedAdminToken> {
    const admin = currentAdmin(context);
    if (adminId && adminId !== admin.id) {
      const error = domainError('ADMIN_TOKEN_NOT_YOURS');
      await recordRefusal(context.em, admin, { action: 'access.refused', targetType: 'operation', targetId: 'issueAdminToken', details: { code: error.code, adminId } });
      throw error;
    }
    const issued = await issueAdminToken(context.em, admin, context.services.adminTokenTtlDays);
    return { adminToken: issued.record, token: issued.token };
  }

  @Authorized('ADMIN')
  @Mutation(() => AdminTokenObject, { description: 'Refuses the token from the next request on (yours, or, for owners, anyone’s).' })
  async revokeAdminToken(@Arg('id', () => ID) id: string, @Ctx() context: AdminsContext): Promise<AdminToken> {
    const token = await findAdminToken(context.em, id);
    await adminIdFor(context, token.admin.id, 'revokeAdminToken');
    return revokeAdminToken(context.em, currentAdmin(context), token);
  }

  @FieldResolver(() => ID)
  adminId(@Root() token: AdminToken): string {
    return token.admin.id;
  }

  @FieldResolver(() => String, { description: 'Who issued it: the admin it belongs to (their id), or `cli` (create-admin).' })
  issuedBy(@Root() token: AdminToken): string {
    return tokenIssuer(token);
  }

  @FieldResolver(() => Boolean, { description: 'The token this request came with.' })
  current(@Root() token: AdminToken, @Ctx() context: AdminsContext): boolean {
    return context.actor.kind === 'admin' && context.actor.tokenId === token.id;
  }
}
