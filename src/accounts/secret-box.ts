import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * TOTP secrets must be read back to check a code, so they cannot be hashed like passwords, links and
 * recovery codes. With ACCOUNT_SECRETS_KEY set they are sealed with AES-256-GCM under that key, kept out of
 * the database: a copy of the database alone then yields no second factor. Sealed values read
 * `aes1:<iv|tag|ciphertext base64url>`; values stored before the key was set stay readable and are sealed
 * when next written (the next enrolment).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
}

const PREFIX = 'aes1:';

export function createSecretBox(keyHex: string | undefined): SecretBox {
  const key = keyHex ? Buffer.from(keyHex, 'hex') : null;
  return {
    seal(plain) {
      if (!key) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      if (!key) throw new Error('A TOTP secret is sealed but ACCOUNT_SECRETS_KEY is not set');
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
