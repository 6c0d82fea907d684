/** A payment as the GraphQL operations in schema/operations/rest.graphql return it. */
export interface GraphQLPayment {
  id: string;
  amount: number;
  currency: string;
  status: string;
  checkoutUrl: string;
  customerEmail: string | null;
  customerName: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  completedAt?: string | null;
}

/** Spec, Resources/Payment: the create payload (field order as the spec lists them). */
export function createdPaymentView(p: GraphQLPayment) {
  return {
    id: p.id,
    amount: p.amount,
    currency: p.currency,
    status: p.status.toLowerCase(),
    checkout_url: p.checkoutUrl,
    customer_email: p.customerEmail,
    customer_name: p.customerName,
    metadata: p.metadata,
    created_at: p.createdAt,
  };
}

/** Spec: retrieve adds `completed_at`. */
export function paymentView(p: GraphQLPayment) {
  return { ...createdPaymentView(p), completed_at: p.completedAt ?? null };
}
