import { scryptSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkPasswordPolicy, hashPassword, lowerPasswordWorkForTests, needsRehash, verifyPassword } from '../../src/modules/identity/password';
import { DomainError } from '../../src/shared/errors';

const codeOf = (password: string) => {
  try {
    checkPasswordPolicy(password);
    return null;
  } catch (error) {
    return (error as DomainError).code;
  }
};

describe('the password rule (PCI DSS v4 8.3.6)', () => {
  test.each([
    ['a'.repeat(11) + 'Z', null],
    ['abcdefghijk', 'PASSWORD_TOO_SHORT'],
    ['é'.repeat(11), 'PASSWORD_TOO_SHORT'],
    ['😀'.repeat(12), null],
    ['x'.repeat(256), null],
    ['x'.repeat(257), 'PASSWORD_TOO_LONG'],
    ['passwordpassword', 'PASSWORD_TOO_COMMON'],
    ['  PassWordPassWord ', 'PASSWORD_TOO_COMMON'],
    ['passwordpassword!', null],
  ])('%j -> %s', (password, expected) => {
    expect(codeOf(password)).toBe(expected);
  });
});

describe('scrypt hashes', () => {
  // Production's work: this file is about the hashes themselves (every other suite hashes with the test work).
  beforeAll(() => lowerPasswordWorkForTests(false));
  afterAll(() => lowerPasswordWorkForTests(true));

  test('verify the right password only, carry their parameters and a fresh salt', async () => {
    const first = await hashPassword('violet-tundra-harbour-42');
    const second = await hashPassword('violet-tundra-harbour-42');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('violet-tundra-harbour-42', first)).toBe(true);
    expect(await verifyPassword('violet-tundra-harbour-43', first)).toBe(false);
  });

  test('an unknown account (no stored hash) never verifies, and a foreign scheme is refused', async () => {
    expect(await verifyPassword('anything-at-all-123', null)).toBe(false);
    expect(await verifyPassword('anything-at-all-123', 'bcrypt$2b$10$abc')).toBe(false);
  });

  test('a password of 256 emoji (512 UTF-16 units) verifies; one character more never does', async () => {
    const stored = await hashPassword('😀'.repeat(256));
    expect(await verifyPassword('😀'.repeat(256), stored)).toBe(true);
    expect(await verifyPassword('😀'.repeat(257), stored)).toBe(false);
  });

  test('compatibility forms of one password are the same password (NFKC)', async () => {
    const stored = await hashPassword('ﬁnancial-harbour-42');
    expect(await verifyPassword('financial-harbour-42', stored)).toBe(true);
  });

  test('the stored key is scrypt (RFC 7914) of the NFKC password and salt with the parameters written beside it', async () => {
    const [, n, r, p, salt, key] = (await hashPassword('ﬁnancial-harbour-42')).split('$');
    const expected = scryptSync('financial-harbour-42', Buffer.from(salt, 'base64url'), 32, { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 });
    expect(key).toBe(expected.toString('base64url'));
  });

  test('an unknown account pays for a scrypt run too: a sign-in does not tell a known e-mail by its speed', async () => {
    const stored = await hashPassword('violet-tundra-harbour-42');
    const timed = async (hash: string | null) => {
      const started = process.hrtime.bigint();
      await verifyPassword('not-the-password-at-all', hash);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (runs: number[]) => runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    // Taken in turns, so a moment when the machine is busy slows both kinds alike.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(stored));
      unknown.push(await timed(null));
    }
    // Loose on purpose (a shared machine): skipping scrypt would be hundreds of times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) / 3);
  });

  test('a stored string that is not a whole scrypt hash of ours never verifies, and never throws', async () => {
    const [, n, r, p, salt, key] = (await hashPassword('violet-tundra-harbour-42')).split('$');
    // Every part right but the scheme's name.
    expect(await verifyPassword('violet-tundra-harbour-42', ['scrypt2', n, r, p, salt, key].join('$'))).toBe(false);
    // A key of the wrong length (timingSafeEqual would throw on it).
    expect(await verifyPassword('violet-tundra-harbour-42', ['scrypt', n, r, p, salt, 'AAAA'].join('$'))).toBe(false);
  });

  test('a hash of a password longer than the rule allows never verifies, even with that very password', async () => {
    const stored = await hashPassword('x'.repeat(257));
    expect(await verifyPassword('x'.repeat(257), stored)).toBe(false);
  });

  test("a hash is rehashed at the next sign-in when any of its parameters or its scheme differs from today's", () => {
    expect(needsRehash('scrypt$32768$8$1$salt$hash')).toBe(false);
    expect(needsRehash('scrypt$16384$8$1$salt$hash')).toBe(true);
    expect(needsRehash('scrypt$32768$16$1$salt$hash')).toBe(true);
    expect(needsRehash('scrypt$32768$8$2$salt$hash')).toBe(true);
    expect(needsRehash('scrypt2$32768$8$1$salt$hash')).toBe(true);
    expect(needsRehash('bcrypt$x')).toBe(true);
  });
});

describe("the test suites' lowered work", () => {
  afterAll(() => lowerPasswordWorkForTests(true));

  test('hashes with N = 2^10, verifies both kinds, and marks the other kind for rehash', async () => {
    lowerPasswordWorkForTests(false);
    const production = await hashPassword('violet-tundra-harbour-42');
    lowerPasswordWorkForTests(true);
    const lowered = await hashPassword('violet-tundra-harbour-42');
    expect(lowered).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('violet-tundra-harbour-42', production)).toBe(true);
    expect(await verifyPassword('violet-tundra-harbour-42', lowered)).toBe(true);
    expect(needsRehash(production)).toBe(true);
    lowerPasswordWorkForTests(false);
    expect(needsRehash(lowered)).toBe(true);
    expect(needsRehash(production)).toBe(false);
  });

  test('is never switched on by the service: nothing in src/ but its definition names it', () => {
    const src = path.join(__dirname, '../../src');
    const files = fs.readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const naming = files.filter((file) => fs.readFileSync(path.join(src, file), 'utf8').includes('lowerPasswordWorkForTests'));
    expect(naming).toEqual([path.join('modules', 'identity', 'password.ts')]);
  });
});
