import { Arg, Args, Authorized, Ctx, Field, FieldResolver, ID, InputType, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { currentAdmin } from '../../platform/graphql/request-scope';
import type { IdentityContext } from './identity-context';
import { sendInvitation } from './admin-account.resolver';
import type { BalanceSummary } from '../ledger';
import { Balance } from '../ledger/web';
import { Seller, SellerStatus } from './seller.entity';
import { SellerObject } from './seller.object';
import {
  createSellerAndShop,
  createShopForExistingSeller,
  deleteShop,
  findSeller,
  findShop,
  listShops,
  setSellerAccountStatus,
  setSellerStatus,
  setShopStatus,
  type ShopAdminDeps,
} from './shop-admin.service';
import { Shop, ShopStatus } from './shop.entity';
import { ShopObject } from './shop.object';
import { AccountStatus, paymentMaximumFor } from './account-status';
import type { NewShop } from './shop-provisioning';
import { type Page } from '../../shared/pagination';
import { PageArgs, PageType } from '../../platform/graphql/pages';
import { ShopOrder } from '../../shared/list-order';

export const ShopList = PageType(ShopObject, 'ShopList');

@InputType()
export class ShopInput {
  @Field(() => String, { description: '1 to 200 characters.' })
  shopName!: string;

  @Field(() => String, { nullable: true, description: 'HTTPS, public address; may be set later with setWebhookUrl.' })
  webhookUrl?: string | null;
}

@ObjectType({ description: 'A new shop with its credentials. The API key and webhook secret are shown here only, never again.' })
export class CreatedShop {
  @Field(() => SellerObject) seller!: Seller;
  @Field(() => ShopObject) shop!: Shop;
  @Field(() => String, { description: 'svc_live_…: shown once; only its hash is stored.' }) apiKey!: string;
  @Field(() => String, { description: 'whsec_…: shown once.' }) webhookSecret!: string;
}

const REASON = { nullable: true, description: 'Why (kept in the audit log); required to deactivate, delete or suspend.' } as const;

export function shopAdminDeps(services: IdentityContext['services']): ShopAdminDeps {
  return { credentials: services.credentials, checkWebhookUrl: services.webhooks.checkUrl, secrets: services.accounts.secrets };
}

export function created(result: NewShop): CreatedShop {
  return { seller: result.seller, shop: result.shop, apiKey: result.apiKey, webhookSecret: result.webhookSecret };
}

/** The seller and shop life cycle, for admins. Every change tells the API-key cache at once. */
@Resolver(() => ShopObject)
export class ShopAdminResolver {
  @Authorized('OWNER')
  @Mutation(() => CreatedShop, { description: 'A seller account with its one shop and its API key; the seller is mailed an invitation link to choose a password.' })
  async createSellerWithShop(
    @Arg('email', () => String) email: string,
    @Arg('shop', () => ShopInput) shop: ShopInput,
    @Ctx() context: IdentityContext,
  ): Promise<CreatedShop> {
    const result = await createSellerAndShop(context.em, currentAdmin(context), email, shop, shopAdminDeps(context.services));
    // The seller has no password yet: the invitation mail lets them choose one (docs/dashboard.md).
    await sendInvitation(context, result.seller.id);
    return created(result);
  }

  @Authorized('OWNER')
  @Mutation(() => CreatedShop, { description: 'A new shop for a seller whose shop was deleted (one live shop per seller).' })
  async createShop(@Arg('sellerId', () => ID) sellerId: string, @Arg('shop', () => ShopInput) shop: ShopInput, @Ctx() context: IdentityContext): Promise<CreatedShop> {
    return created(await createShopForExistingSeller(context.em, currentAdmin(context), sellerId, shop, shopAdminDeps(context.services)));
  }

  @Authorized('OWNER')
  @Mutation(() => ShopObject, { description: "The shop's key answers 401 Shop is inactive until it is reactivated." })
  deactivateShop(@Arg('id', () => ID) id: string, @Arg('reason', () => String, REASON) reason: string | null, @Ctx() context: IdentityContext): Promise<Shop> {
    return setShopStatus(context.em, currentAdmin(context), id, ShopStatus.INACTIVE, reason, shopAdminDeps(context.services));
  }

  @Authorized('OWNER')
  @Mutation(() => ShopObject)
  reactivateShop(@Arg('id', () => ID) id: string, @Arg('reason', () => String, REASON) reason: string | null, @Ctx() context: IdentityContext): Promise<Shop> {
    return setShopStatus(context.em, currentAdmin(context), id, ShopStatus.ACTIVE, reason, shopAdminDeps(context.services));
  }

  @Authorized('OWNER')
  @Mutation(() => ShopObject, { description: 'Soft delete: its keys answer 401 Invalid API key at once; payments and ledger stay.' })
  deleteShop(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: IdentityContext): Promise<Shop> {
    return deleteShop(context.em, currentAdmin(context), id, reason, shopAdminDeps(context.services));
  }

  @Authorized('OWNER')
  @Mutation(() => SellerObject, { description: "The seller's keys answer 403 Seller account inactive until it is reactivated." })
  suspendSeller(@Arg('id', () => ID) id: string, @Arg('reason', () => String) reason: string, @Ctx() context: IdentityContext): Promise<Seller> {
    return setSellerStatus(context.em, currentAdmin(context), id, SellerStatus.SUSPENDED, reason, shopAdminDeps(context.services));
  }

  @Authorized('OWNER')
  @Mutation(() => SellerObject)
  reactivateSeller(@Arg('id', () => ID) id: string, @Arg('reason', () => String, REASON) reason: string | null, @Ctx() context: IdentityContext): Promise<Seller> {
    return setSellerStatus(context.em, currentAdmin(context), id, SellerStatus.ACTIVE, reason, shopAdminDeps(context.services));
  }

  @Authorized('OWNER')
  @Mutation(() => SellerObject, { description: "Sets the seller's account status, which caps each payment's amount; the reason is kept in the audit log." })
  setSellerAccountStatus(
    @Arg('id', () => ID) id: string,
    @Arg('accountStatus', () => AccountStatus) accountStatus: AccountStatus,
    @Arg('reason', () => String) reason: string,
    @Ctx() context: IdentityContext,
  ): Promise<Seller> {
    return setSellerAccountStatus(context.em, currentAdmin(context), id, accountStatus, reason, shopAdminDeps(context.services));
  }

  @Authorized('ADMIN')
  @Query(() => ShopList, { description: 'Shops, newest first unless `order` says otherwise; `search` matches the shop name or the seller e-mail.' })
  shops(
    @Arg('status', () => ShopStatus, { nullable: true }) status: ShopStatus | null,
    @Arg('search', () => String, { nullable: true }) search: string | null,
    @Arg('includeDeleted', () => Boolean, { nullable: true }) includeDeleted: boolean | null,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: IdentityContext,
    @Arg('order', () => ShopOrder, { nullable: true, description: 'Default NEWEST_FIRST.' }) order?: ShopOrder | null,
  ): Promise<Page<Shop>> {
    return listShops(context.em, { status, search, includeDeleted }, page, limit, order);
  }

  @Authorized('ADMIN')
  @Query(() => ShopObject, { description: 'Any shop by id, deleted ones included.' })
  shop(@Arg('id', () => ID) id: string, @Ctx() context: IdentityContext): Promise<Shop> {
    return findShop(context.em, id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => SellerObject)
  async seller(@Root() shop: Shop, @Ctx() context: IdentityContext): Promise<Seller> {
    return (await context.loaders.seller.load(shop.seller.id))!;
  }

  @Authorized('ADMIN')
  @FieldResolver(() => DateTimeISOResolver, { nullable: true, description: 'Set when the shop was deleted.' })
  deletedAt(@Root() shop: Shop): Date | null {
    return shop.deletedAt;
  }

  @Authorized('SELLER', 'ADMIN')
  @FieldResolver(() => Balance, { description: "The seller's balance." })
  balance(@Root() shop: Shop, @Ctx() context: IdentityContext): Promise<BalanceSummary> {
    return context.loaders.balanceOfSeller.load(shop.seller.id);
  }
}

@Resolver(() => SellerObject)
export class SellerAdminResolver {
  @Authorized('ADMIN')
  @Query(() => SellerObject)
  seller(@Arg('id', () => ID) id: string, @Ctx() context: IdentityContext): Promise<Seller> {
    return findSeller(context.em, id);
  }

  // A session reaches only its own Seller (currentSeller), so it may read its live shop here too.
  @Authorized('SESSION', 'ADMIN')
  @FieldResolver(() => ShopObject, { nullable: true, description: 'The live (not deleted) shop, if any.' })
  shop(@Root() seller: Seller, @Ctx() context: IdentityContext): Promise<Shop | null> {
    return context.loaders.liveShopOfSeller.load(seller.id);
  }

  @Authorized('ADMIN')
  @FieldResolver(() => SafeIntResolver, { nullable: true, description: "The largest payment the seller may create now, in cents (from its account status); null: no maximum." })
  paymentMaximum(@Root() seller: Seller, @Ctx() context: IdentityContext): number | null {
    return paymentMaximumFor(seller.accountStatus, context.services.paymentMaximums);
  }
}
