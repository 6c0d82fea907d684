import { randomBytes } from 'node:crypto';
import { randomHex, sha256Hex } from '../../shared/secrets';

/** Spec, Authentication: the literal prefix `svc_live_` and 64 hexadecimal characters (lowercase here). */
export const API_KEY_PATTERN = /^svc_live_[0-9a-f]{64}$/;

export interface NewApiKey {
  plaintext: string;
  hash: string;
  displayPrefix: string;
}

export function newApiKey(): NewApiKey {
  const plaintext = `svc_live_${randomHex(32)}`;
  return { plaintext, hash: sha256Hex(plaintext), displayPrefix: plaintext.slice(0, 13) };
}

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
