import { createHash } from 'node:crypto';
import { newReturnToken, RETURN_TOKEN_MAX_LENGTH, returnTokenMatches } from '../../src/modules/checkout/issuer-return-token';

test('a return token is 256 random bits, URL-safe, fresh every time; only its SHA-256 is handed out for keeping', () => {
  const tokens = Array.from({ length: 50 }, () => newReturnToken());
  for (const { token, hash } of tokens) {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
  }
  expect(new Set(tokens.map((t) => t.token)).size).toBe(tokens.length);
});

test('only the token itself matches its hash', () => {
  const { token, hash } = newReturnToken();
  expect(returnTokenMatches(hash, token)).toBe(true);
  expect(returnTokenMatches(hash, newReturnToken().token)).toBe(false);
  expect(returnTokenMatches(hash, `${token}x`)).toBe(false);
  expect(returnTokenMatches(hash, token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase())).toBe(false);
  expect(returnTokenMatches(hash, '')).toBe(false);
  expect(returnTokenMatches(hash, null)).toBe(false);
  expect(returnTokenMatches(hash, undefined)).toBe(false);
  expect(returnTokenMatches(hash, 'a'.repeat(RETURN_TOKEN_MAX_LENGTH + 1))).toBe(false);
  // No open challenge (or one opened before hashes were kept): nothing matches.
  expect(returnTokenMatches(null, token)).toBe(false);
  // The hash is not a token.
  expect(returnTokenMatches(hash, hash)).toBe(false);
});
