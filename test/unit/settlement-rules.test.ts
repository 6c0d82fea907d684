import { answerProblem, SettlementAnswer } from '../../src/modules/checkout/settlement-rules';

/** Which acquirer answers a finance admin may record by hand, for what (src/modules/checkout/settlement-rules.ts). */
const atAcquirer = { type: 'payment', status: 'pending', stage: 'processing' } as const;
const refundIn = (status: string) => ({ type: 'refund', status }) as const;
const REF = 'NC6HT9CRT65ZGN82';

test.each([
  [SettlementAnswer.AUTHORISED, REF],
  [SettlementAnswer.REFUSED, null],
  [SettlementAnswer.NEVER_RECEIVED, null],
])('a payment whose card is at the acquirer may be answered %s', (answer, reference) => {
  expect(answerProblem(answer, atAcquirer, reference)).toBeNull();
});

test.each([
  [{ type: 'payment', status: 'pending', stage: 'card_required' }],
  [{ type: 'payment', status: 'pending', stage: 'authentication_required' }],
  [{ type: 'payment', status: 'completed', stage: 'finished' }],
  [{ type: 'payment', status: 'failed', stage: 'finished' }],
] as const)('no answer settles a payment not at the acquirer: %o', (target) => {
  expect(answerProblem(SettlementAnswer.REFUSED, target, null)).toBe(`Only a payment whose card is at the acquirer without an answer can be settled by hand (this one is ${target.status})`);
});

test('a payment takes no refund answer, a refund no payment answer', () => {
  expect(answerProblem(SettlementAnswer.REFUND_FAILED, atAcquirer, null)).toBe('A payment can be answered authorised, refused or never_received, not refund_failed');
  expect(answerProblem(SettlementAnswer.REFUNDED, atAcquirer, REF)).toBe('A payment can be answered authorised, refused or never_received, not refunded');
  for (const answer of [SettlementAnswer.REFUSED, SettlementAnswer.NEVER_RECEIVED]) {
    expect(answerProblem(answer, refundIn('processing'), null)).toBe(`A refund can be answered refunded or refund_failed, not ${answer}`);
  }
  expect(answerProblem(SettlementAnswer.AUTHORISED, refundIn('processing'), REF)).toBe('A refund can be answered refunded or refund_failed, not authorised');
});

test('a refund carried out is answered only while processing; a failure also after it was carried out', () => {
  expect(answerProblem(SettlementAnswer.REFUNDED, refundIn('processing'), REF)).toBeNull();
  expect(answerProblem(SettlementAnswer.REFUNDED, refundIn('refunded'), REF)).toBe('Only a refund that is processing can be answered refunded (this one is refunded)');
  expect(answerProblem(SettlementAnswer.REFUND_FAILED, refundIn('processing'), null)).toBeNull();
  expect(answerProblem(SettlementAnswer.REFUND_FAILED, refundIn('refunded'), null)).toBeNull();
  for (const status of ['requested', 'approved', 'failed', 'rejected', 'reversed']) {
    expect(answerProblem(SettlementAnswer.REFUND_FAILED, refundIn(status), null)).toBe(`Only a refund that is processing or refunded can be answered refund_failed (this one is ${status})`);
  }
});

test("what the acquirer carried out needs its reference, plain and short; the others need none", () => {
  const needs = "This answer needs the acquirer's reference (its PSP reference: 1 to 64 letters, digits, - or _)";
  for (const reference of [null, '', ' ', "x' or 1=1", 'a'.repeat(65), 'ABC\n', 'ÄBC']) {
    expect(answerProblem(SettlementAnswer.AUTHORISED, atAcquirer, reference)).toBe(needs);
    expect(answerProblem(SettlementAnswer.REFUNDED, refundIn('processing'), reference)).toBe(needs);
  }
  for (const reference of ['A', 'a'.repeat(64), 'ab-C_9']) expect(answerProblem(SettlementAnswer.AUTHORISED, atAcquirer, reference)).toBeNull();
  expect(answerProblem(SettlementAnswer.REFUND_FAILED, refundIn('refunded'), null)).toBeNull();
});
