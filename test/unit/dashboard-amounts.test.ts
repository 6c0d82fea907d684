import { dollarsToCents, money } from '../../dashboard-ui/src/format';
import { maskAccountNumber, maskedPayoutAccount, validAccountNumber, validHolder } from '../../src/modules/withdrawals/payout-account';

describe('the Withdrawals screen turns dollars into cents on the digits', () => {
  test.each([
    ['10', 1000], ['10.5', 1050], ['10.50', 1050], ['0.07', 7], ['$ 25', 2500], ['1,234.56', 123456], [' 20.05 ', 2005],
  ])('%j is %d cents', (text, cents) => expect(dollarsToCents(text)).toBe(cents));

  test.each(['', 'ten', '10.505', '-10', '1e3', '10.', '.5', '12 34', '0x10'])('%j is not an amount', (text) => expect(dollarsToCents(text)).toBeNull());

  test('0.29 is 29 cents exactly (no floating point on the way)', () => expect(dollarsToCents('0.29')).toBe(29));
  test('balances arrive as cents, numbers or BigInt strings', () => {
    expect(money(2050)).toBe('$20.50');
    expect(money('123456')).toBe('$1,234.56');
    expect(money(-150)).toBe('-$1.50');
  });
});

describe('a payout account', () => {
  test('the number is kept compact and upper case, and shown only by its last four', () => {
    expect(validAccountNumber('de89 3704-0044 0532 0130 00')).toBe('DE89370400440532013000');
    expect(maskAccountNumber('DE89370400440532013000')).toBe('•••• 3000');
    expect(maskedPayoutAccount({ payoutAccountHolder: 'Ann', payoutAccountNumber: 'DE89370400440532013000' })).toEqual({ holder: 'Ann', accountNumberMasked: '•••• 3000' });
    expect(maskedPayoutAccount({ payoutAccountHolder: null, payoutAccountNumber: null })).toBeNull();
  });

  test.each(['12345', 'A'.repeat(35), 'DE89 3704 0044 €', '', '12345678<script>'])('%j is refused as a bank account number', (text) => {
    expect(() => validAccountNumber(text)).toThrow(expect.objectContaining({ code: 'PAYOUT_ACCOUNT_NUMBER_INVALID' }));
  });

  test('a holder is 1 to 200 characters', () => {
    expect(validHolder('  Ann Example ')).toBe('Ann Example');
    expect(() => validHolder('   ')).toThrow(expect.objectContaining({ code: 'PAYOUT_ACCOUNT_HOLDER_INVALID' }));
    expect(() => validHolder('x'.repeat(201))).toThrow(expect.objectContaining({ code: 'PAYOUT_ACCOUNT_HOLDER_INVALID' }));
  });
});
