import { transitionFor, type PaymentTrigger } from '../../src/payments/payment-lifecycle';

/** The payment transition table has no move for a trigger it does not know, and says which. */
test('a trigger without a transition is a programming error naming the trigger', () => {
  expect(() => transitionFor('capture' as PaymentTrigger)).toThrow('no transition for capture');
});
