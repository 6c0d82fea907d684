import { Field, ObjectType } from 'type-graphql';
import { Shop } from '../identity';
import { ShopObject } from '../identity/web';
import type { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryObject } from './webhook-delivery.object';
import { Pagination } from '../../platform/graphql/pages';

@ObjectType()
export class WebhookDeliveryList {
  @Field(() => [WebhookDeliveryObject], { description: 'Failed deliveries first, then newest first.' }) items!: WebhookDelivery[];
  @Field(() => Pagination) pagination!: Pagination;
}

@ObjectType()
export class RotatedWebhookSecret {
  @Field(() => ShopObject) shop!: Shop;
  @Field(() => String, { description: 'Shown once, in this answer only. Deliveries from now on are signed with it.' })
  webhookSecret!: string;
}
