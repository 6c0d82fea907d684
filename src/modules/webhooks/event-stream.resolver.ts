import { Arg, Authorized, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { sellerShopId, adminOrNull, shopIdFor } from '../../platform/graphql/request-scope';
import type { WebhooksContext } from './webhooks-context';
import { EVENT_STREAM_PAGE_MAX, eventStreamPage, STREAM_FROM_FIRST, type EventStreamPage } from './event-stream';
import { triggerTestEvent } from './test-events';
import type { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryObject } from './webhook-delivery.object';
import { liveShop } from './webhook-settings.service';

@ObjectType('StreamedEvent', { description: 'One event of the shop, as its webhook delivery would carry it.' })
export class StreamedEventView {
  @Field(() => ID, { description: 'The body\'s `id` and the `webhook-id` header.' }) id!: string;
  @Field(() => String, { description: 'For example payment.completed.' }) type!: string;
  @Field(() => Boolean, { description: 'A test event: its delivery carries `X-Service-Test: true`.' }) test!: boolean;
  @Field(() => String, { description: 'The exact body a delivery sends (and signs), byte for byte.' }) body!: string;
  @Field(() => DateTimeISOResolver) createdAt!: Date;
}

@ObjectType('EventStreamPage')
export class EventStreamPageView {
  @Field(() => String, { description: 'Pass it as `after` for the next page: the last event\'s id, or where the stream stands.' }) cursor!: string;
  @Field(() => [StreamedEventView], { description: 'In the order they were written.' }) events!: StreamedEventView[];
}

@ObjectType('TriggeredTestEvent')
export class TriggeredTestEventView {
  @Field(() => ID) eventId!: string;
  @Field(() => String) eventType!: string;
  @Field(() => WebhookDeliveryObject, { nullable: true, description: 'Its delivery to the webhook URL; null when the shop has none or does not receive the type.' })
  delivery!: WebhookDelivery | null;
}

const SHOP_ID = { nullable: true, description: "Admins name the shop; a seller's key manages its own shop (omit it)." } as const;

/** A shop's events for a developer's machine (docs/integrate.md, "Events on your machine"): read in order, and triggered. */
@Resolver()
export class EventStreamResolver {
  @Authorized('SELLER')
  @Query(() => EventStreamPageView, {
    description: `The shop's events in the order written, after \`after\` (an event id, or ${STREAM_FROM_FIRST} for the first); without it, none and where the stream stands now.`,
  })
  eventStream(
    @Arg('after', () => String, { nullable: true }) after: string | null,
    @Arg('limit', () => Int, { nullable: true, description: `1 to ${EVENT_STREAM_PAGE_MAX}, default ${EVENT_STREAM_PAGE_MAX}.` }) limit: number | null,
    @Ctx() context: WebhooksContext,
  ): Promise<EventStreamPage> {
    return eventStreamPage(context.em, sellerShopId(context), after, limit);
  }

  @Authorized('SELLER', 'SUPPORT', 'OWNER')
  @Mutation(() => TriggeredTestEventView, {
    description: 'Writes a signed test event of that type (X-Service-Test: true), sent to the webhook URL if the shop receives the type, and to every event stream. Counted with sendTestWebhook.',
  })
  async triggerTestEvent(
    @Arg('event', () => String, { description: 'payment.completed, payment.failed, payment.refunded, refund.failed, withdrawal.paid or withdrawal.rejected.' }) type: string,
    @Arg('shopId', () => ID, SHOP_ID) shopId: string | null,
    @Ctx() context: WebhooksContext,
  ): Promise<TriggeredTestEventView> {
    const shop = await liveShop(context.em, shopIdFor(context, shopId));
    const { event, delivery } = await triggerTestEvent(context.em, adminOrNull(context), shop, context.services.webhooks, type);
    return { eventId: event.id, eventType: event.type, delivery };
  }
}
