import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { currentSession, sellerShopId } from '../../platform/graphql/auth-checker';
import type { GraphQLContext } from '../../platform/graphql/context';
import { CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, mail, reauthenticated } from './account.resolver';
import { accountMails } from './account-mails';
import { Seller } from './seller.entity';
import { CreatedShop, created, shopAdminDeps } from './shop-admin.resolver';
import { createShopForExistingSeller, deleteOwnShop } from './shop-admin.service';
import { Shop } from './shop.entity';

/**
 * The seller's own shop life cycle in the dashboard (spec: a lost or leaked key means deleting the shop and
 * creating a new one). A dashboard session only: an API key, which may be the leaked one, cannot delete or
 * replace its shop. Both re-authenticate (a stolen session must not mint a key), and the seller is mailed for
 * each. The rules are the admins' (shop-admin.service.ts).
 */
@Resolver(() => Shop)
export class SellerShopResolver {
  @Authorized('SESSION')
  @Mutation(() => Shop, { description: "Deletes the signed-in seller's shop, confirmed by its exact name and re-authentication (`currentPassword`, or `code` with two-factor on): its keys answer 401 Invalid API key at once." })
  async deleteMyShop(
    @Arg('shopName', () => String, { description: 'The shop name, typed to confirm.' }) shopName: string,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<Shop> {
    const shopId = sellerShopId(context);
    await reauthenticated(context, { currentPassword, code });
    const shop = await deleteOwnShop(context.em, shopId, shopName, shopAdminDeps(context.services));
    const { sellerId } = currentSession(context);
    context.services.logger.info({ requestId: context.requestId, shopId, sellerId }, 'shop deleted by its seller');
    await mailSeller(context, sellerId, (to) => accountMails.shopDeleted(context.baseUrl, to, shop.name));
    return shop;
  }

  @Authorized('SESSION')
  @Mutation(() => CreatedShop, { description: 'A new shop for the signed-in seller whose shop was deleted, after re-authentication (`currentPassword`, or `code` with two-factor on); its API key and webhook secret are shown here only.' })
  async createMyShop(
    @Arg('shopName', () => String) shopName: string,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatedShop> {
    const { sellerId } = currentSession(context);
    await reauthenticated(context, { currentPassword, code });
    const result = await createShopForExistingSeller(context.em, null, sellerId, { shopName }, shopAdminDeps(context.services));
    context.services.logger.info({ requestId: context.requestId, shopId: result.shop.id, sellerId }, 'shop created by its seller');
    await mailSeller(context, sellerId, (to) => accountMails.apiKeyIssued(context.baseUrl, to, result.shop.name));
    return created(result);
  }
}

async function mailSeller(context: GraphQLContext, sellerId: string, message: (to: string) => ReturnType<typeof accountMails.shopDeleted>): Promise<void> {
  const seller = await context.em.findOneOrFail(Seller, sellerId);
  mail(context, message(seller.email));
}
