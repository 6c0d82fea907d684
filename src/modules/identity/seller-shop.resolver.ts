import { Arg, Authorized, Ctx, Field, FieldResolver, Mutation, ObjectType, Resolver, Root } from 'type-graphql';
import { currentSession, sellerShopId } from '../../platform/graphql/request-scope';
import type { IdentityContext } from './identity-context';
import { CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, mail, reauthenticated } from './account.resolver';
import { accountMails, type AccountMail } from './account-mails';
import { Seller } from './seller.entity';
import { SellerObject } from './seller.object';
import { CreatedShop, created, shopAdminDeps } from './shop-admin.resolver';
import { createShopForExistingSeller, deleteOwnShop } from './shop-admin.service';
import { keptWebhookOf, type KeptWebhook } from './kept-webhook';
import { Shop } from './shop.entity';
import { ShopObject } from './shop.object';

/**
 * The seller's own shop life cycle in the dashboard (spec: a lost or leaked key means deleting the shop and
 * creating a new one). A dashboard session only: an API key, which may be the leaked one, cannot delete or
 * replace its shop. Both re-authenticate (a stolen session must not mint a key), and the seller is mailed for
 * each. The rules are the admins' (shop-admin.service.ts).
 */
@Resolver(() => ShopObject)
export class SellerShopResolver {
  @Authorized('SESSION')
  @Mutation(() => ShopObject, { description: "Deletes the signed-in seller's shop, confirmed by its exact name and re-authentication (`currentPassword`, or `code` with two-factor on): its keys answer 401 Invalid API key at once." })
  async deleteMyShop(
    @Arg('shopName', () => String, { description: 'The shop name, typed to confirm.' }) shopName: string,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: IdentityContext,
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
    @Arg('keepWebhook', () => Boolean, { nullable: true, description: "true: the new shop keeps the webhook URL (checked again) and events of the seller's previous shop, as previousShopWebhook shows them; nothing when that is null. The webhook secret is new either way. Default false." })
    keepWebhook: boolean | null,
    @Ctx() context: IdentityContext,
  ): Promise<CreatedShop> {
    const { sellerId } = currentSession(context);
    await reauthenticated(context, { currentPassword, code });
    const kept = keepWebhook ? await keptWebhookOf(context.em, sellerId) : null;
    const request = { shopName, webhookUrl: kept?.webhookUrl, webhookEvents: kept?.webhookEvents };
    const result = await createShopForExistingSeller(context.em, null, sellerId, request, shopAdminDeps(context.services));
    context.services.logger.info({ requestId: context.requestId, shopId: result.shop.id, sellerId, keptWebhook: kept !== null }, 'shop created by its seller');
    await mailSeller(context, sellerId, (to) => accountMails.apiKeyIssued(context.baseUrl, to, result.shop.name, kept && { webhookUrl: result.shop.webhookUrl, events: result.shop.webhookEvents.length > 0 }));
    return created(result);
  }
}

@ObjectType({ description: "What a new shop may keep of the seller's previous shop (createMyShop's keepWebhook). Never its secret." })
export class PreviousShopWebhook implements KeptWebhook {
  @Field(() => String, { description: 'The previous shop.' }) shopName!: string;
  @Field(() => String, { nullable: true }) webhookUrl!: string | null;
  @Field(() => [String], { description: 'Events chosen besides payment.completed (always sent).' }) webhookEvents!: string[];
}

@Resolver(() => SellerObject)
export class SellerPreviousShopResolver {
  @Authorized('SESSION')
  @FieldResolver(() => PreviousShopWebhook, {
    nullable: true,
    description:
      "While the seller has no live shop: the webhook URL and events of its own previous shop, which a new shop may keep. Null when there is none to keep: none set, the shop was deleted by our team, or it predates the account's takeover from a reset link (whose URL was cleared on purpose).",
  })
  async previousShopWebhook(@Root() seller: Seller, @Ctx() context: IdentityContext): Promise<KeptWebhook | null> {
    // A session reaches only its own Seller (currentSeller); said again here, as this names a URL.
    if (seller.id !== currentSession(context).sellerId) return null;
    return keptWebhookOf(context.em, seller.id);
  }
}

async function mailSeller(context: IdentityContext, sellerId: string, message: (to: string) => AccountMail): Promise<void> {
  const seller = await context.em.findOneOrFail(Seller, sellerId);
  await mail(context, sellerId, message(seller.email));
}
