import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets we must read back, so cannot hash like passwords, links and recovery codes: TOTP secrets (to
 * check a code), payout account numbers (for finance's bank transfer) and webhook secrets (to sign deliveries). With ACCOUNT_SECRETS_KEY set they
 * are sealed with AES-256-GCM under that key, kept out of the database: a copy of the database alone then
 * yields neither a second factor nor a bank account.
 *
 * Sealed values read `aes2:<key id>:<iv|tag|ciphertext base64url>`. The key id is derived from the key (the
 * first 8 hex characters of a SHA-256 over it), so a value names the key that opens it and the operator
 * configures keys only: ACCOUNT_SECRETS_KEY seals, and it or any of ACCOUNT_SECRETS_OLD_KEYS opens. Values
 * of the first format, `aes1:<…>` (no key id), are opened with whichever configured key fits. Values
 * stored before any key was set stay readable as they are. `npm run cli -- reencrypt-secrets` seals every
 * stored secret again with the current key (src/modules/identity/reencrypt-secrets.ts).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
  /** Whether `stored` is not sealed with the current key (plain, the first format, or an older key): what re-encryption rewrites. */
  stale(stored: string): boolean;
  /** Whether a key is configured, i.e. `seal` encrypts. */
  readonly sealing: boolean;
}

const V1 = 'aes1:';
const V2 = 'aes2:';

/** Whether a stored value is sealed (either format), as opposed to stored as it is. */
export const isSealed = (stored: string) => stored.startsWith(V1) || stored.startsWith(V2);

/** The id a sealed value names its key by: not secret, not reversible (8 hex characters of a hash of the key). */
export function keyId(keyHex: string): string {
  return createHash('sha256').update(`hcp-secret-box:${keyHex.toLowerCase()}`).digest('hex').slice(0, 8);
}

export function createSecretBox(keyHex: string | undefined, oldKeysHex: string[] = []): SecretBox {
  const current = keyHex ? { id: keyId(keyHex), key: Buffer.from(keyHex, 'hex') } : null;
  const keys = new Map<string, Buffer>();
  for (const hex of [...(keyHex ? [keyHex] : []), ...oldKeysHex]) if (!keys.has(keyId(hex))) keys.set(keyId(hex), Buffer.from(hex, 'hex'));
  return {
    sealing: current !== null,
    seal(plain) {
      if (!current) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${V2}${current.id}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      if (keys.size === 0) throw new Error('A secret is sealed but ACCOUNT_SECRETS_KEY is not set');
      if (stored.startsWith(V2)) {
        const [id, payload] = stored.slice(V2.length).split(':');
        const key = keys.get(id);
        if (!key) throw new Error(`A secret is sealed with key ${id}, which is neither ACCOUNT_SECRETS_KEY nor one of ACCOUNT_SECRETS_OLD_KEYS`);
        return decrypt(key, payload);
      }
      for (const key of keys.values()) {
        try {
          return decrypt(key, stored.slice(V1.length));
        } catch {
          // Not this key: the first format names none, so each configured key is tried.
        }
      }
      throw new Error('A secret sealed in the first format opens with none of ACCOUNT_SECRETS_KEY and ACCOUNT_SECRETS_OLD_KEYS');
    },
    stale(stored) {
      if (!current) return false;
      return !stored.startsWith(`${V2}${current.id}:`);
    },
  };
}

function decrypt(key: Buffer, payload: string): string {
  const raw = Buffer.from(payload, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
