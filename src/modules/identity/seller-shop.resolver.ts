import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { currentSession, sellerShopId } from '../../platform/graphql/auth-checker';
import type { GraphQLContext } from '../../platform/graphql/context';
import { CreatedShop, created, shopAdminDeps } from './shop-admin.resolver';
import { createShopForExistingSeller, deleteOwnShop } from './shop-admin.service';
import { Shop } from './shop.entity';

/**
 * The seller's own shop life cycle in the dashboard (spec: a lost or leaked key means deleting the shop and
 * creating a new one). A dashboard session only: an API key, which may be the leaked one, cannot delete or
 * replace its shop. The rules are the admins' (shop-admin.service.ts).
 */
@Resolver(() => Shop)
export class SellerShopResolver {
  @Authorized('SESSION')
  @Mutation(() => Shop, { description: "Deletes the signed-in seller's shop, confirmed by its exact name: its keys answer 401 Invalid API key at once." })
  async deleteMyShop(@Arg('shopName', () => String, { description: 'The shop name, typed to confirm.' }) shopName: string, @Ctx() context: GraphQLContext): Promise<Shop> {
    const shopId = sellerShopId(context);
    const shop = await deleteOwnShop(context.em, shopId, shopName, shopAdminDeps(context.services));
    context.services.logger.info({ requestId: context.requestId, shopId, sellerId: currentSession(context).sellerId }, 'shop deleted by its seller');
    return shop;
  }

  @Authorized('SESSION')
  @Mutation(() => CreatedShop, { description: 'A new shop for the signed-in seller whose shop was deleted; its API key and webhook secret are shown here only.' })
  async createMyShop(@Arg('shopName', () => String) shopName: string, @Ctx() context: GraphQLContext): Promise<CreatedShop> {
    const { sellerId } = currentSession(context);
    const result = await createShopForExistingSeller(context.em, null, sellerId, { shopName }, shopAdminDeps(context.services));
    context.services.logger.info({ requestId: context.requestId, shopId: result.shop.id, sellerId }, 'shop created by its seller');
    return created(result);
  }
}
