import { checkPasswordPolicy, hashPassword, verifyPassword } from '../../src/modules/identity/password';
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
});
