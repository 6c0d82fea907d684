import { optionalReason, validReason } from '../../src/shared/reason';
import { checkAgainstBalance, validWithdrawalAmount } from '../../src/modules/withdrawals/withdrawal.service';
import { codeOf } from '../support/domain-errors';

describe('reasons', () => {
  test('500 characters after trimming are accepted, counted as characters; 501 are not', () => {
    expect(validReason(` ${'😀'.repeat(500)} `)).toBe('😀'.repeat(500));
    expect(codeOf(() => validReason('a'.repeat(501)))).toBe('REASON_REQUIRED');
  });

  test('blank, null and missing reasons are required', () => {
    for (const reason of ['', ' \n ', null, undefined]) expect(codeOf(() => validReason(reason))).toBe('REASON_REQUIRED');
    expect(validReason('x')).toBe('x');
  });

  test('an optional reason left blank is null; one given follows the same rule, trimmed', () => {
    for (const reason of ['', '   ', null, undefined]) expect(optionalReason(reason)).toBeNull();
    expect(optionalReason('  late  ')).toBe('late');
    expect(codeOf(() => optionalReason('a'.repeat(501)))).toBe('REASON_REQUIRED');
  });
});

describe('withdrawal amounts', () => {
  test('1000 cents is the smallest withdrawal; integers only', () => {
    expect(validWithdrawalAmount(1000)).toBe(1000);
    expect(codeOf(() => validWithdrawalAmount(999))).toBe('WITHDRAWAL_BELOW_MINIMUM');
    for (const amount of [1000.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(codeOf(() => validWithdrawalAmount(amount))).toBe('AMOUNT_INVALID');
  });

  test('the whole balance may be taken, a cent more may not; an empty balance is not a negative one', () => {
    expect(codeOf(() => checkAgainstBalance(1000, 1000n))).toBe('ok');
    expect(() => checkAgainstBalance(1001, 1000n)).toThrow('Withdrawal amount exceeds the available balance of 1000 cents');
    expect(codeOf(() => checkAgainstBalance(1000, 0n))).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
    expect(codeOf(() => checkAgainstBalance(1000, -1n))).toBe('WITHDRAWAL_BALANCE_NEGATIVE');
  });
});
