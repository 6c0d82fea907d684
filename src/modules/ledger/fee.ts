/** Spec: a fee of 15% of the amount is deducted when the seller balance is credited. */
export const FEE_PERCENT = 15n;

/**
 * FEE_PERCENT of `amount` cents, rounded half up to the cent (50 -> 7.5 -> 8); net = amount - fee.
 * BigInt keeps the product exact for any amount up to 2^53.
 */
export function feeFor(amount: number): number {
  return Number((BigInt(amount) * FEE_PERCENT + 50n) / 100n);
}

export function netOf(amount: number): number {
  return amount - feeFor(amount);
}

/** The fee of a payment: none for a live test (docs/dashboard.md, "Live test"), FEE_PERCENT otherwise. */
export function paymentFee(payment: { amount: number; test: boolean }): number {
  return payment.test ? 0 : feeFor(payment.amount);
}
