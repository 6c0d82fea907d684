/*
 * The fragments of schema/operations/rest.graphql as TypeScript types, for the result types each route
 * declares with its entry in routes.ts. The aliases there give the REST names; GraphQL answers enum values by
 * name (`PENDING`). The document reads the same shapes from the file itself (openapi/result-schemas.ts), and
 * test/integration/api/openapi.test.ts checks real answers against it. One type per fragment, none per route.
 */

/** fragment Payment */
export interface PaymentFields {
  id: string;
  amount: number;
  currency: string;
  status: string;
  checkout_url: string;
  customer_email: string | null;
  customer_name: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
}

/** fragment PaymentWithCompletion */
export interface PaymentWithCompletionFields extends PaymentFields {
  completed_at: string | null;
}

/** fragment Pagination */
export interface PaginationFields {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

/** fragment Shop */
export interface ShopFields {
  id: string;
  shop_name: string;
}
