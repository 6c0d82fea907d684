// Verifying a webhook of the payment service: plain Node 20, no dependencies.
// Both functions take the RAW body bytes as received (a Buffer), before any JSON parsing:
// re-serialising parsed JSON changes bytes and breaks the signature.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Equal in constant time (a plain === leaks, through timing, how much of a guess was right). */
function sameBytes(a, b) {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The spec's scheme, `X-Service-Signature`: lowercase hex HMAC-SHA256 of the body, keyed with the whole
 * webhook secret as shown (`whsec_…` included) as UTF-8 bytes. No timestamp: de-duplicate by event id.
 */
export function verifyServiceSignature(rawBody, signatureHeader, secret) {
  if (typeof signatureHeader !== 'string' || !/^[0-9a-f]{64}$/.test(signatureHeader)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
  return sameBytes(Buffer.from(signatureHeader, 'hex'), expected);
}

/**
 * Standard Webhooks (https://www.standardwebhooks.com/): `webhook-signature` holds one or more
 * `v1,<base64>` entries, each an HMAC-SHA256 of `webhook-id.webhook-timestamp.body` keyed with the
 * base64-decoded part of the secret after `whsec_`. The timestamp must be within `toleranceSeconds`
 * of now, so a captured request cannot be replayed later.
 */
export function verifyStandardWebhook(rawBody, headers, secret, { toleranceSeconds = 300, now = Date.now() } = {}) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  return signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => sameBytes(Buffer.from(entry.slice(3), 'base64'), expected));
}
