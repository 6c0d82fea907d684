/**
 * The link a customer's refund mails carry to the refund's tracking page (src/modules/refunds/refund-tracking.ts).
 * Refunds issue its token and keep only the hash; the mails, the one place the token is written, hold its shape.
 */

/** 32 bytes as base64url: exactly 43 characters of the URL-safe alphabet. Anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const isTrackingTokenShape = (token: string): boolean => TOKEN_SHAPE.test(token);

/** The path of a refund's page; the mails put the public base URL in front. */
export const trackingPath = (token: string): string => `/refunds/${token}`;
