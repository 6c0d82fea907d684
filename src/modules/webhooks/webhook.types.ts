import { Field, ObjectType } from 'type-graphql';
import { Shop, ShopObject } from '../identity';
import { WebhookDelivery } from './webhook-delivery.entity';
import { Pagination } from '../../shared/pagination';

@ObjectType()
export class WebhookDeliveryList {
  @Field(() => [WebhookDelivery], { description: 'Failed deliveries first, then newest first.' }) items!: WebhookDelivery[];
  @Field(() => Pagination) pagination!: Pagination;
}

@ObjectType()
export class RotatedWebhookSecret {
  @Field(() => ShopObject) shop!: Shop;
  @Field(() => String, { description: 'Shown once, in this answer only. Deliveries from now on are signed with it.' })
  webhookSecret!: string;
}
