import { Arg, Args, Authorized, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Shop } from '../identity';
import { CURRENT_CODE_ARG, CURRENT_PASSWORD_ARG, reauthenticated, ShopObject } from '../identity/web';
import { adminOrNull, shopIdFor, shopScopeFor } from '../../platform/graphql/request-scope';
import type { WebhooksContext } from './webhooks-context';
import type { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookAttemptObject } from './webhook-attempt.object';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { WebhookDeliveryObject } from './webhook-delivery.object';
import {
  findDelivery,
  listDeliveries,
  liveShop,
  resendDelivery,
  rotateWebhookSecret,
  sendTestDelivery,
  setWebhookEvents,
  setWebhookUrl,
} from './webhook-settings.service';
import { RotatedWebhookSecret, WebhookDeliveryList } from './webhook.types';
import { PageArgs } from '../../platform/graphql/pages';

const SHOP_ID = { nullable: true, description: "Admins name the shop; a seller's key manages its own shop (omit it)." } as const;

/** Webhook settings of a shop and its delivery log: admins for any shop, a seller's key for its own. */
@Resolver(() => WebhookDeliveryObject)
export class WebhookResolver {
  @Authorized('SELLER', 'OWNER')
  @Mutation(() => ShopObject, {
    description: 'Sets the webhook URL (HTTPS, public address), or clears it with null. A dashboard session re-authenticates: `currentPassword`, or `code` with two-factor on.',
  })
  async setWebhookUrl(
    @Arg('url', () => String, { nullable: true }) url: string | null,
    @Arg('shopId', () => ID, SHOP_ID) shopId: string | null,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: WebhooksContext,
  ): Promise<Shop> {
    const shop = await liveShop(context.em, shopIdFor(context, shopId));
    const confirm = () => reauthenticated(context, { currentPassword, code });
    return setWebhookUrl(context.em, adminOrNull(context), shop, url, context.services.webhooks.urlPolicy, confirm);
  }

  @Authorized('SELLER', 'OWNER')
  @Mutation(() => ShopObject, { description: 'Chooses the webhook events sent besides payment.completed (always sent); an empty list = that one only.' })
  async setWebhookEvents(
    @Arg('events', () => [String]) events: string[],
    @Arg('shopId', () => ID, SHOP_ID) shopId: string | null,
    @Ctx() context: WebhooksContext,
  ): Promise<Shop> {
    const shop = await liveShop(context.em, shopIdFor(context, shopId));
    return setWebhookEvents(context.em, adminOrNull(context), shop, events);
  }

  @Authorized('SELLER', 'OWNER')
  @Mutation(() => RotatedWebhookSecret, {
    description: 'Replaces the webhook secret; the new one is shown once. A dashboard session re-authenticates: `currentPassword`, or `code` with two-factor on.',
  })
  async rotateWebhookSecret(
    @Arg('shopId', () => ID, SHOP_ID) shopId: string | null,
    @Arg('currentPassword', () => String, CURRENT_PASSWORD_ARG) currentPassword: string | null,
    @Arg('code', () => String, CURRENT_CODE_ARG) code: string | null,
    @Ctx() context: WebhooksContext,
  ): Promise<RotatedWebhookSecret> {
    const shop = await liveShop(context.em, shopIdFor(context, shopId));
    await reauthenticated(context, { currentPassword, code });
    return { shop, webhookSecret: await rotateWebhookSecret(context.em, adminOrNull(context), shop, context.services.accounts.secrets) };
  }

  @Authorized('SELLER', 'SUPPORT', 'OWNER')
  @Mutation(() => WebhookDeliveryObject, { description: 'Sends a sample payment.completed marked X-Service-Test: true (one attempt).' })
  async sendTestWebhook(@Arg('shopId', () => ID, SHOP_ID) shopId: string | null, @Ctx() context: WebhooksContext): Promise<WebhookDelivery> {
    const shop = await liveShop(context.em, shopIdFor(context, shopId));
    return sendTestDelivery(context.em, adminOrNull(context), shop, context.services.webhooks);
  }

  @Authorized('SELLER', 'SUPPORT', 'OWNER')
  @Mutation(() => WebhookDeliveryObject, { description: 'Starts a new retry schedule for a failed (or delivered) delivery: same event, same body.' })
  async resendWebhookDelivery(@Arg('id', () => ID) id: string, @Ctx() context: WebhooksContext): Promise<WebhookDelivery> {
    const delivery = await findDelivery(context.em, shopScopeFor(context, null), id);
    return resendDelivery(context.em, adminOrNull(context), delivery, context.services.webhooks);
  }

  @Authorized('ADMIN', 'SELLER')
  @Query(() => WebhookDeliveryObject, { description: 'One delivery with every attempt.' })
  webhookDelivery(@Arg('id', () => ID) id: string, @Ctx() context: WebhooksContext): Promise<WebhookDelivery> {
    return findDelivery(context.em, shopScopeFor(context, null), id);
  }

  @Authorized('ADMIN', 'SELLER')
  @Query(() => WebhookDeliveryList, { description: 'The delivery log, failed first: per shop, per payment, or (admins) all shops.' })
  webhookDeliveries(
    @Arg('shopId', () => ID, { nullable: true }) shopId: string | null,
    @Arg('paymentId', () => ID, { nullable: true }) paymentId: string | null,
    @Arg('status', () => WebhookDeliveryStatus, { nullable: true }) status: WebhookDeliveryStatus | null,
    @Args(() => PageArgs) { page, limit }: PageArgs,
    @Ctx() context: WebhooksContext,
  ): Promise<WebhookDeliveryList> {
    return listDeliveries(context.em, { shopScope: shopScopeFor(context, shopId), paymentId, status }, page, limit);
  }

  @FieldResolver(() => ID, { description: "The event's id: the body's `id` and the `webhook-id` header, the same on every attempt." })
  eventId(@Root() delivery: WebhookDelivery): string {
    return delivery.event.id;
  }

  @FieldResolver(() => String, { description: 'For example payment.completed.' })
  eventType(@Root() delivery: WebhookDelivery): string {
    return delivery.event.type;
  }

  @FieldResolver(() => Int, { description: "The event's per-payment sequence number." })
  sequence(@Root() delivery: WebhookDelivery): number {
    return delivery.event.sequence;
  }

  @FieldResolver(() => Boolean, { description: 'A test delivery from the shop settings.' })
  test(@Root() delivery: WebhookDelivery): boolean {
    return delivery.event.test;
  }

  @FieldResolver(() => ID)
  shopId(@Root() delivery: WebhookDelivery): string {
    return delivery.shop.id;
  }

  @FieldResolver(() => ID, { nullable: true })
  paymentId(@Root() delivery: WebhookDelivery): string | null {
    return delivery.paymentId;
  }

  @FieldResolver(() => [WebhookAttemptObject], { description: 'Every attempt, oldest first.' })
  attempts(@Root() delivery: WebhookDelivery, @Ctx() context: WebhooksContext): Promise<WebhookAttempt[]> {
    return context.loaders.attemptsOfDelivery.load(delivery.id);
  }
}
