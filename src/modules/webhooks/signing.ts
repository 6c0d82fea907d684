import { createHmac } from 'node:crypto';

/**
 * The two signatures every delivery carries, both over the exact bytes sent.
 *
 * - `X-Service-Signature` (the spec's): lowercase hex HMAC-SHA256 of the body. The key is the whole
 *   webhook secret as shown to the seller, `whsec_…` included, as UTF-8 bytes, so a receiver can use
 *   the string exactly as it was shown. It has no timestamp: it proves origin, not freshness.
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`): HMAC-SHA256
 *   of `id.timestamp.body`, keyed with the base64-decoded part after `whsec_` (that standard's rule), so
 *   its libraries verify it and receivers can refuse old (replayed) deliveries.
 */
const STANDARD_PREFIX = 'whsec_';

export function serviceSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');
}

export function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${signature}`;
}

/** The headers of one attempt. The body and X-Service-Signature are the same on every retry; the timestamp is the attempt's. */
export function deliveryHeaders(secret: string, eventId: string, body: string, options: { test: boolean; now?: Date }): Record<string, string> {
  const timestamp = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'HostedCheckout-Webhooks/1',
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, eventId, timestamp, body),
    ...(options.test ? { 'x-service-test': 'true' } : {}),
  };
}
