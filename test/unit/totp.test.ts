import { Secret, TOTP } from 'otpauth';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpCode, totpStep } from '../../src/modules/identity/totp';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { loadConfig } from '../../src/shared/config';

/** RFC 6238 appendix B: the SHA-1 secret "12345678901234567890", 8 digits, 30-second steps. */
const RFC_6238_SHA1: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  test.each(RFC_6238_SHA1)('the library we rely on gives the RFC test vector at T=%d', (seconds, expected) => {
    const totp = new TOTP({ algorithm: 'SHA1', digits: 8, period: 30, secret: Secret.fromLatin1('12345678901234567890') });
    expect(totp.generate({ timestamp: seconds * 1000 })).toBe(expected);
  });

  test('our 6-digit codes are the RFC values cut to 6 digits (same HMAC, same dynamic truncation)', () => {
    const secret = Secret.fromLatin1('12345678901234567890').base32;
    for (const [seconds, expected] of RFC_6238_SHA1) expect(totpCode(secret, seconds * 1000)).toBe(expected.slice(-6));
  });

  test('a code is accepted in its own step and one step either side, never two away; the step is answered for replay checks', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(totpStep(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(secret, totpCode(secret, now - 60_000), now)).toBeNull();
    expect(totpStep(secret, totpCode(secret, now + 60_000), now)).toBeNull();
  });

  test('anything but six digits is not a TOTP code', () => {
    const secret = newTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', ' 123456', '12345a']) expect(totpStep(secret, code)).toBeNull();
  });

  test('secrets are 160 random bits (base32, 32 characters) and differ', () => {
    const secrets = new Set(Array.from({ length: 20 }, newTotpSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  });
});

describe('recovery codes', () => {
  test('ten distinct codes xxxxx-xxxxx; the hash ignores case, spaces and the dash', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const [code] = codes;
    expect(recoveryCodeHash(code.toUpperCase().replace('-', ' '))).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(codes[1])).not.toBe(recoveryCodeHash(code));
  });
});

describe('the secret box (ACCOUNT_SECRETS_KEY)', () => {
  const box = createSecretBox('0f'.repeat(32));

  test('seals with AES-256-GCM: a fresh IV each time, opened back to the secret', () => {
    const secret = newTotpSecret();
    const [a, b] = [box.seal(secret), box.seal(secret)];
    expect(a).toMatch(/^aes2:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(box.open(a)).toBe(secret);
  });

  test('a tampered value or another key is refused, never opened to something else', () => {
    const sealed = box.seal(newTotpSecret());
    const at = sealed.length - 2;
    const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
    expect(flipped).not.toBe(sealed);
    expect(() => box.open(flipped)).toThrow();
    expect(() => createSecretBox('1e'.repeat(32)).open(sealed)).toThrow();
    expect(() => createSecretBox(undefined).open(sealed)).toThrow(/ACCOUNT_SECRETS_KEY is not set/);
  });

  test('without a key, and for values stored before the key was set, secrets pass as they are', () => {
    expect(createSecretBox(undefined).seal('ABCDEF')).toBe('ABCDEF');
    expect(box.open('ABCDEF')).toBe('ABCDEF');
  });

  test('the setting takes exactly 64 hexadecimal characters', () => {
    expect(loadConfig({ ACCOUNT_SECRETS_KEY: 'AB'.repeat(32) }).accountSecretsKey).toBe('ab'.repeat(32));
    expect(() => loadConfig({ ACCOUNT_SECRETS_KEY: 'ab'.repeat(16) })).toThrow(/ACCOUNT_SECRETS_KEY must be 64 hexadecimal characters/);
  });
});
