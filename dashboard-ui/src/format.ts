/** Money arrives as integer cents (BigInt fields may be strings of digits). */
export function money(cents: number | string, currency = 'usd'): string {
  const value = Number(cents) / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(value);
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

const WORDS: Record<string, string> = {
  PENDING: 'Pending', COMPLETED: 'Completed', FAILED: 'Failed', REFUNDED: 'Refunded', REQUESTED: 'Requested',
  APPROVED: 'Approved', REJECTED: 'Rejected', PAID: 'Paid', PROCESSING: 'Processing', DELIVERED: 'Delivered',
  RETRYING: 'Retrying', SCHEDULED: 'Scheduled', IN_FLIGHT: 'Sending',
};
export const statusWord = (status: string) => WORDS[status] ?? status.charAt(0) + status.slice(1).toLowerCase().replace(/_/g, ' ');

/**
 * Why a refund request ended as it did, for the seller, after its status: the reason finance gave for a
 * rejection, or the acquirer's for a refund it refused (status FAILED); empty otherwise.
 */
export function refundReasonNote(refund: { status: string; rejectionReason: string | null; failureReason: string | null }): string {
  if (refund.rejectionReason) return ` Reason given: ${refund.rejectionReason}`;
  if (refund.status === 'FAILED' && refund.failureReason) return ` The card acquirer refused it: ${refund.failureReason}`;
  return '';
}

/**
 * "12.50" -> 1250 cents, done on the digits (no floating point); null when it is not an amount in dollars
 * with at most two decimals. The minimum and balance rules are the server's, in the API's words.
 */
export function dollarsToCents(text: string): number | null {
  const match = /^\s*\$?\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text.replace(/,/g, ''));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
