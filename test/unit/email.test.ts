import { EMAIL_MAX_LENGTH, isEmailAddress } from '../../src/shared/email';

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
