import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type QRCode from 'qrcode';
import { sha256Hex } from '../../shared/secrets';

/**
 * TOTP (RFC 6238) as every authenticator app reads it: HMAC-SHA1, 6 digits, 30-second steps, a 160-bit
 * secret (RFC 4226's recommended length). A code is accepted one step either side of now (clock drift),
 * and each step only once per account (the caller keeps the last step used: no replay within the window).
 */
const PERIOD_SECONDS = 30;
const ISSUER = 'Payments';

function totp(secret: string, label = 'account'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new shared secret, base32 (what apps accept when typed). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** What an enrolment shows once: the secret, its otpauth:// URI and that URI as a QR code drawn here (SVG, no outside service). */
export async function totpEnrolment(secret: string, email: string): Promise<{ secret: string; otpauthUri: string; qrCodeSvg: string }> {
  const otpauthUri = totp(secret, email).toString();
  // Loaded here, at an enrolment, not with the service: a start or a CLI call never draws a QR code.
  const { toString } = require('qrcode') as typeof QRCode;
  return { secret, otpauthUri, qrCodeSvg: await toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
}

/** The 30-second step a six-digit `code` belongs to (now, or one step either side), or null when it matches none. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

/** The code of `secret` at `now` (tests, and nothing else, need to compute one). */
export function totpCode(secret: string, now = Date.now()): string {
  return totp(secret).generate({ timestamp: now });
}

export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten recovery codes, shown once: 10 random base32 characters each (50 bits), as `xxxxx-xxxxx`. They are
 * random, not chosen, so a SHA-256 of each is enough at rest (no password KDF needed).
 */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** How a recovery code is stored and looked up: case, spaces and the dash do not matter. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(`recovery:${code.toLowerCase().replace(/[\s-]/g, '')}`);
}
