import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { ShopStatus } from './shop.entity';

registerEnumType(ShopStatus, { name: 'ShopStatus' });

/** The GraphQL Shop. Resolvers return Shop entities; each field reads the entity's property of the same name. */
@ObjectType('Shop')
export class ShopObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => ShopStatus)
  status!: ShopStatus;

  @Field(() => String, { nullable: true })
  webhookUrl!: string | null;

  @Field(() => [String], { description: 'Webhook events sent besides payment.completed (always sent): payment.failed, payment.refunded, refund.failed, withdrawal.paid, withdrawal.rejected.' })
  webhookEvents!: string[];

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}
