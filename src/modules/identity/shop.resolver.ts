import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { sellerShop } from '../../platform/graphql/request-scope';
import type { IdentityContext } from './identity-context';
import { Shop } from './shop.entity';
import { ShopObject } from './shop.object';

@Resolver(() => ShopObject)
export class ShopResolver {
  @Authorized('SELLER')
  @Query(() => ShopObject, { description: "The calling API key's shop." })
  currentShop(@Ctx() context: IdentityContext): Promise<Shop> {
    return context.em.findOneOrFail(Shop, sellerShop(context).id);
  }
}
