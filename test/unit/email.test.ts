import { EMAIL_MAX_LENGTH, isEmailAddress, isNewAccountAddress, mailboxKey, normalEmail } from '../../src/shared/email';

const addressOfLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

describe('the one e-mail rule', () => {
  test.each(['ann@example.com', 'ann.lee+shop@mail.example.co.uk', 'x@y.z'])('accepts %s', (address) => {
    expect(isEmailAddress(address)).toBe(true);
  });

  test.each(['ann@example', 'a b@example.com', 'ann@example.com ', ' ann@example.com', 'ann@@example.com', 'ann@.example.com', 'ann@example..com', '@example.com', 'ann'])(
    'refuses %j',
    (address) => expect(isEmailAddress(address)).toBe(false),
  );

  test(`an address of exactly ${EMAIL_MAX_LENGTH} characters passes, one more does not`, () => {
    expect(isEmailAddress(addressOfLength(EMAIL_MAX_LENGTH))).toBe(true);
    expect(isEmailAddress(addressOfLength(EMAIL_MAX_LENGTH + 1))).toBe(false);
  });
});

describe('addresses of new accounts: normalised, visible, one script', () => {
  test('NFKC, trimmed and lower case: a full-width address is the ASCII one', () => {
    expect(normalEmail(' ＡＮＮ＠ｅｘａｍｐｌｅ．ｃｏｍ ')).toBe('ann@example.com');
  });

  test.each(['ann@example.com', 'zoë.lee@example.com', 'иван@пример.рф', 'δοκιμή@παράδειγμα.ελ', '山田@例え.jp', 'やまだ@例え.日本', '김@예시.kr'])('accepts %s', (address) => {
    expect(isNewAccountAddress(normalEmail(address))).toBe(true);
  });

  test.each([
    ['a Cyrillic а among Latin letters', '\u0430nn@example.com'],
    ['a Greek ο among Latin letters', 'b\u03bfb@example.com'],
    ['a Cyrillic address with a Latin top-level domain', 'иван@пример.com'],
    ['a zero-width space', 'ann\u200b@example.com'],
    ['a zero-width joiner', 'an\u200dn@example.com'],
    ['a right-to-left override', 'ann\u202e@example.com'],
    ['a soft hyphen', 'an\u00adn@example.com'],
  ])('refuses %s', (_what, address) => {
    expect(isNewAccountAddress(normalEmail(address))).toBe(false);
  });
});

test('two non-Latin scripts together are refused too', () => {
  expect(isNewAccountAddress('иван@παράδειγμα.ελ')).toBe(false);
});

describe('the mailbox an address reaches (mailboxKey): spellings one provider delivers to one person count as one', () => {
  test.each([
    ['Ann@Example.com', 'ann@example.com'],
    [' ann+shop-1@example.com ', 'ann@example.com'],
    ['ann+@example.com', 'ann@example.com'],
    ['ＡＮＮ＋ｘ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'ann@example.com'],
    ['A.n.N+x@Gmail.com', 'ann@gmail.com'],
    ['a.nn@googlemail.com', 'ann@gmail.com'],
    ['a.nn@example.com', 'a.nn@example.com'],
    ['+ann@example.com', '+ann@example.com'],
  ])('%s reaches %s', (address, key) => {
    expect(mailboxKey(address)).toBe(key);
  });
});
