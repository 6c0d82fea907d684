import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { CheckoutResolver } from '../checkout/checkout.resolver';
import { PaymentResolver } from '../payments/payment.resolver';
import { ShopResolver } from '../shops/shop.resolver';
import { authChecker } from './auth-checker';

export const RESOLVERS = [PaymentResolver, ShopResolver, CheckoutResolver] as const;

/** The one schema behind /graphql, the REST facade, the checkout page and the admin console. */
export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers: RESOLVERS, authChecker, validate: false });
}

/** The SDL as committed in schema/schema.graphql (sorted, so diffs show only real changes). */
export function printAppSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
