/**
 * How far we trust a seller with money (docs/admin.md, "Account status and payment limits"), set by owner
 * admins. Apart from `SellerStatus` (active/suspended), which decides whether the seller's keys work at all.
 */
export enum AccountStatus {
  NEW = 'new',
  VERIFIED = 'verified',
  RESTRICTED = 'restricted',
}

/** The largest amount in cents one payment may have, per account status; null = no maximum. */
export type PaymentMaximums = Record<AccountStatus, number | null>;

/** The maximum that applies to a seller, or null when its payments are not capped. */
export function paymentMaximumFor(status: AccountStatus, maximums: PaymentMaximums): number | null {
  return maximums[status];
}

/** True when `amount` (cents) is above the maximum; an absent maximum caps nothing. */
export function exceedsPaymentMaximum(amount: number, maximum: number | null): boolean {
  return maximum !== null && amount > maximum;
}
