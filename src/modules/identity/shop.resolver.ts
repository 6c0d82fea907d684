import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { sellerShop } from '../../api/graphql/auth-checker';
import type { GraphQLContext } from '../../api/graphql/context';
import { Shop } from './shop.entity';

@Resolver(() => Shop)
export class ShopResolver {
  @Authorized('SELLER')
  @Query(() => Shop, { description: "The calling API key's shop." })
  currentShop(@Ctx() context: GraphQLContext): Promise<Shop> {
    return context.em.findOneOrFail(Shop, sellerShop(context).id);
  }
}
