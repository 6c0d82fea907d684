/*
 * What the operations of schema/operations/rest.graphql answer, for the routes' typed result handlers. The
 * aliases there give the REST names; GraphQL answers enum values by name (`PENDING`). The document reads
 * the same shapes from the file itself (openapi/result-schemas.ts), and test/integration/openapi.test.ts
 * checks real answers against it.
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

export interface RestOperationResults {
  CurrentShop: { currentShop: ShopFields };
  CreatePayment: { createPayment: { replayed: boolean; payment: PaymentFields } };
  GetPayment: { payment: PaymentWithCompletionFields };
  ListPayments: { payments: { items: PaymentWithCompletionFields[]; pagination: PaginationFields } };
}

export type RestOperationName = keyof RestOperationResults;
