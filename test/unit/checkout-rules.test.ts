import { brandOf, validCard } from '../../src/modules/checkout/card-intake';
import { isUnexpired, passesLuhn } from '../../src/modules/checkout/card-predicates';
import { failureMessageFor, SHOPPER_FAILURE_OF, SHOPPER_MESSAGES, shopperFailureCodeOf } from '../../src/modules/checkout/failure-messages';
import { feeFor, netOf, paymentFee } from '../../src/modules/ledger/fee';
import { moveOf, statesOf } from '../../src/platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../../src/modules/payments/payment.lifecycle';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { followedReturnUrl, returnUrlWith } from '../../src/modules/checkout/checkout-view';
import { TEST_CARDS } from '../../src/platform/processor/simulated-acquirer';
import { REFUND_LIFECYCLE } from '../../src/modules/refunds/refund.lifecycle';
import { CATALOGUES } from '../../src/shared/customer-language/catalogues';
import { LANGUAGES } from '../../src/shared/customer-language/languages';

describe('the fee: 15%, rounded half up to the cent', () => {
  test.each([
    [1, 0, 1],
    [50, 8, 42],
    [99, 15, 84],
    [101, 15, 86],
    [100, 15, 85],
    [1234, 185, 1049],
    [Number.MAX_SAFE_INTEGER, 1351079888211149, 7656119366529842],
  ])('%i cents -> fee %i, net %i', (amount, fee, net) => {
    expect(feeFor(amount)).toBe(fee);
    expect(netOf(amount)).toBe(net);
  });

  test('a live test pays no fee', () => {
    expect(paymentFee({ amount: 1234, test: false })).toBe(185);
    expect(paymentFee({ amount: 1234, test: true })).toBe(0);
  });
});

describe('the payment state machine', () => {
  test('pending -> completed | failed; completed -> refunded; failed is final; refunded leaves only when the acquirer reverses the refund', () => {
    expect(moveOf(PAYMENT_LIFECYCLE, 'complete')).toMatchObject({ from: [PaymentStatus.PENDING], to: PaymentStatus.COMPLETED });
    expect(moveOf(PAYMENT_LIFECYCLE, 'fail')).toMatchObject({ from: [PaymentStatus.PENDING], to: PaymentStatus.FAILED });
    expect(moveOf(PAYMENT_LIFECYCLE, 'expire')).toMatchObject({ from: [PaymentStatus.PENDING], to: PaymentStatus.FAILED });
    expect(moveOf(PAYMENT_LIFECYCLE, 'refund')).toMatchObject({ from: [PaymentStatus.COMPLETED], to: PaymentStatus.REFUNDED });
    const leaving = (state: string) => Object.values(PAYMENT_LIFECYCLE.moves).filter((m) => (m.from as readonly string[]).includes(state));
    expect(leaving(PaymentStatus.FAILED)).toEqual([]);
    expect(leaving(PaymentStatus.REFUNDED)).toEqual([moveOf(PAYMENT_LIFECYCLE, 'reverseRefund')]);
    expect(moveOf(PAYMENT_LIFECYCLE, 'reverseRefund')).toMatchObject({ from: [PaymentStatus.REFUNDED], to: PaymentStatus.COMPLETED });
    // The money of a refund is its own move's: the payment only follows.
    expect(moveOf(REFUND_LIFECYCLE, 'succeed')).toMatchObject({ journal: 'refund', event: 'payment.refunded' });
    expect(moveOf(REFUND_LIFECYCLE, 'reverse')).toMatchObject({ journal: 'refund_reversed' });
    expect(statesOf(PAYMENT_LIFECYCLE)).toEqual(['pending', 'completed', 'failed', 'refunded']);
  });
});

describe('card checks', () => {
  test('Luhn', () => {
    for (const number of Object.keys(TEST_CARDS)) expect(passesLuhn(number)).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  test('a card is valid through the last day of its expiry month', () => {
    const now = new Date(Date.UTC(2026, 10, 30, 23, 0));
    expect(isUnexpired(11, 2026, now)).toBe(true);
    expect(isUnexpired(10, 2026, now)).toBe(false);
    expect(isUnexpired(13, 2030, now)).toBe(false);
  });

  test('spaces and dashes are dropped; brand from the number', () => {
    expect(validCard({ number: '4242 4242-4242 4242', expMonth: 1, expYear: 2099, securityCode: '123' }).number).toBe('4242424242424242');
    expect([brandOf('4242424242424242'), brandOf('5555555555554444'), brandOf('378282246310005'), brandOf('6011111111111117')]).toEqual(['visa', 'mastercard', 'amex', 'discover']);
  });
});

test('a shopper reads one of three messages, never the precise reason of a card failure', () => {
  expect(new Set(Object.values(SHOPPER_FAILURE_OF))).toEqual(new Set(['declined', 'authentication_failed', 'processing_error']));
  for (const [code, category] of Object.entries(SHOPPER_FAILURE_OF)) {
    expect(shopperFailureCodeOf(code)).toBe(category);
    expect(failureMessageFor(code)).toBe(SHOPPER_MESSAGES[category]);
  }
  for (const message of Object.values(SHOPPER_MESSAGES)) expect(message).not.toMatch(/security code|cvc|fraud|funds|expired|balance/i);
  // A code we do not know reads as a decline; not-a-card outcomes keep their own words.
  expect([shopperFailureCodeOf('something_new'), failureMessageFor('something_new')]).toEqual(['declined', SHOPPER_MESSAGES.declined]);
  expect([shopperFailureCodeOf('expired'), shopperFailureCodeOf('shop_unavailable'), shopperFailureCodeOf(null)]).toEqual(['expired', 'shop_unavailable', null]);
});

test('a failed payment is final, so what a shopper reads of its failure never invites another try on this page', () => {
  expect(statesOf(PAYMENT_LIFECYCLE).filter((state) => PAYMENT_LIFECYCLE.states[state].final)).toEqual(['failed']);
  for (const message of Object.values(SHOPPER_MESSAGES)) expect(message).not.toMatch(/try|again|another|different|later/i);
  for (const [category, message] of Object.entries(SHOPPER_MESSAGES)) expect(CATALOGUES.en[`checkout.failure.${category}`]).toBe(message);
  // The page then says the way on (start again at the shop): the category itself is one sentence in every language.
  for (const language of LANGUAGES) {
    for (const category of Object.keys(SHOPPER_MESSAGES)) {
      expect([language, category, CATALOGUES[language][`checkout.failure.${category}`].match(/[.。]/g)]).toEqual([language, category, [expect.any(String)]]);
    }
  }
  expect(CATALOGUES.en['checkout.failedText']).toMatch(/cannot be retried.*return to \{shop\}/);
});

test('the return URL keeps its own query and gains payment_id and status', () => {
  expect(returnUrlWith('https://shop.example/back?order=7#top', 'pay_1', 'completed')).toBe('https://shop.example/back?order=7&payment_id=pay_1&status=completed#top');
});

describe('the return URL followed in test mode: a shop on the customer\'s own machine is reached over http', () => {
  test.each([
    ['https://localhost:4000/thanks?order=7&payment_id=pay_1&status=completed#top', 'http://localhost:4000/thanks?order=7&payment_id=pay_1&status=completed#top'],
    ['https://localhost/thanks', 'http://localhost/thanks'],
    ['https://LOCALHOST:4000/', 'http://localhost:4000/'],
    ['https://127.0.0.1:8443/back', 'http://127.0.0.1:8443/back'],
    ['https://[::1]:4000/back', 'http://[::1]:4000/back'],
    // The browser's own reading of the host: these are 127.0.0.1 to it as well.
    ['https://127.1:4000/', 'http://127.0.0.1:4000/'],
    ['https://0x7f.0.0.1:4000/', 'http://127.0.0.1:4000/'],
  ])('%s -> %s', (url, followed) => {
    expect(followedReturnUrl(url, true)).toBe(followed);
  });

  test.each([
    'https://shop.example.com/thanks?next=https://localhost/',
    'https://localhost.evil.example/thanks',
    'https://127.0.0.1.nip.io/thanks',
    'https://evil.example/#@localhost',
    'https://evil.example/localhost',
    'https://localhost./thanks',
    'https://shop.localhost:4443/thanks',
    'https://127.0.0.2/thanks',
    'https://[::ffff:127.0.0.1]/thanks',
    'https://10.0.0.1/thanks',
  ])('%s, not the customer\'s own machine by name, keeps https', (url) => {
    expect(followedReturnUrl(url, true)).toBe(url);
  });

  test('with a real acquirer every return URL is followed as the seller gave it', () => {
    for (const url of ['https://localhost:4000/thanks', 'https://127.0.0.1/thanks', 'https://[::1]/thanks', 'https://shop.example.com/thanks']) {
      expect(followedReturnUrl(url, false)).toBe(url);
    }
  });
});
