import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { domainError } from '../../shared/errors';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/limits';
import { PROJECT_ROOT } from '../../shared/project-root';

/**
 * scrypt (RFC 7914), memory-hard, built into Node: N = 2^15, r = 8, p = 1 uses 32 MiB and about 50-100 ms
 * per hash on one core (OWASP's 2023 minimum for scrypt is N = 2^17 with r = 8, p = 1 or an equal cost;
 * N = 2^15 is its listed alternative with p = 3 — we chose p = 1 to keep a sign-in short on a 2-core host,
 * see docs/decisions/0016-seller-account-security.md). The parameters are stored with each hash, so raising them later needs no migration.
 */
const PRODUCTION_WORK = { N: 2 ** 15, r: 8, p: 1 } as const;
/** What test suites hash with (see `lowerPasswordWorkForTests`): 2^10 runs in about 1 ms. */
const TEST_WORK = { N: 2 ** 10, r: 8, p: 1 } as const;
let work: { N: number; r: number; p: number } = PRODUCTION_WORK;

/**
 * For test suites only, as Rails' `min_cost` and Django's fast test hasher: hashes made from now on in this process
 * cost about 1 ms instead of 100-200 ms; `false` goes back to production's work. Stored hashes keep their parameters,
 * so both kinds verify. Nothing in src/ calls it (decision 0016).
 */
export function lowerPasswordWorkForTests(lowered: boolean): void {
  work = lowered ? TEST_WORK : PRODUCTION_WORK;
}
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, parameters: ScryptOptions): Promise<Buffer> {
  const maxmem = 256 * (parameters.N ?? 0) * (parameters.r ?? 0) + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...parameters, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (salt and hash in base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, work);
  return ['scrypt', work.N, work.r, work.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; a null `stored` (unknown account) costs the same and is false. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? dummyHash()).split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  // No password longer than the rule allows was ever stored: such a guess is hashed empty, at the same cost.
  const tooLong = [...password].length > PASSWORD_MAX_LENGTH;
  const key = await derive(tooLong ? '' : password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected) && stored !== null && !tooLong;
}

/** Whether `stored` was made with other scrypt parameters than today's (it is then rehashed at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== work.N || Number(r) !== work.r || Number(p) !== work.p;
}

/** A hash of a random password, with today's parameters: checking an unknown e-mail runs scrypt too, so timing does not tell. */
const DUMMY_SALT = randomBytes(SALT_BYTES).toString('base64url');
const DUMMY_KEY = randomBytes(KEY_LENGTH).toString('base64url');
const dummyHash = () => ['scrypt', work.N, work.r, work.p, DUMMY_SALT, DUMMY_KEY].join('$');

/**
 * The passwords refused as too common (src/modules/identity/common-passwords.txt, made by
 * scripts/common-passwords.mjs: the 10,000 most common passwords and every one of 12 characters or more
 * from the ranked list of @zxcvbn-ts/language-common (MIT), plus patterns we added). Compared
 * case-insensitively.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  fs
    .readFileSync(path.join(PROJECT_ROOT, 'src/modules/identity/common-passwords.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean),
);

/** The password rule (PCI DSS v4 8.3.6): 12 to 256 characters, not on the common list. */
export function checkPasswordPolicy(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw domainError('PASSWORD_TOO_SHORT');
  if (length > PASSWORD_MAX_LENGTH) throw domainError('PASSWORD_TOO_LONG');
  if (COMMON_PASSWORDS.has(password.trim().toLowerCase())) throw domainError('PASSWORD_TOO_COMMON');
}
