import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { adminClient, eventually, type AdminClient } from '../../support/admin-client';
import { adyenSuite } from '../../support/adyen-suite';
import { checkoutClient, CARD } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';

jest.setTimeout(60_000);

/**
 * Settling by hand with four eyes (docs/admin.md, "Settling by hand"): when no notification and no look-up can settle a
 * payment or refund, one finance admin records what the acquirer's own records say, another confirms it, and it settles
 * through the same moves as the acquirer's answer. With Adyen, whose v71 API has no look-up: a lost answer with no
 * AUTHORISATION, and a REFUND_FAILED that never arrived.
 */
const suite = adyenSuite('settling-by-hand-four-eyes', { RATE_LIMIT_PER_MINUTE: '1000', REFUND_SWEEP_INTERVAL_MS: '100' });
const AMOUNT = VALID_PAYMENT.amount;
const FEE = Math.round(AMOUNT * 0.15);
const ours = new Set<string>();
const FIELDS = 'id targetId answer acquirerReference status outcome proposedBy reviewedByEmail';
const PROPOSE = `mutation ($input: SettlementProposalInput!) { proposeSettlement(input: $input) { ${FIELDS} } }`;
const CONFIRM = `mutation ($id: ID!, $reason: String!) { confirmSettlement(id: $id, reason: $reason) { ${FIELDS} } }`;
const REJECT = `mutation ($id: ID!) { rejectSettlement(id: $id, reason: "Read the wrong line") { ${FIELDS} } }`;

let proposer: AdminClient;
let checker: AdminClient;
beforeAll(async () => {
  proposer = await adminClient(suite.service, AdminRole.FINANCE);
  checker = await adminClient(suite.service, AdminRole.FINANCE);
});

async function lostAnswer() {
  const shop = await suite.service.createShop();
  const id = (await sellerClient(suite.service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  await checkoutClient(suite.service.url).run('SubmitCard', { id, card: { number: '4111111111111111', ...CARD, nameOnCard: 'LOSE ANSWER' } });
  expect(await suite.reload(id)).toMatchObject({ status: 'pending', checkoutStage: 'processing' });
  return { id, shop };
}

async function balanceOf(sellerId: string): Promise<number> {
  const [row] = await suite.service.em().getConnection().execute(`select coalesce(sum("amount"), 0)::int as sum from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`, [sellerId]);
  return row.sum;
}

async function ourViolations() {
  return (await checkLedger(suite.service.em())).violations.filter((v) => [...ours].some((id) => v.subject.includes(id)));
}

const codeOf = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;

test('a lost answer Adyen authorised: proposed by one finance admin, refused to the same admin, confirmed by another; the seller is credited once', async () => {
  const { id, shop } = await lostAnswer();
  const { proposeSettlement: proposal } = await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'AUTHORISED', acquirerReference: 'NC6HT9CRT65ZGN82', reason: 'Customer Area: Authorised at 10:02' } });
  expect(proposal).toMatchObject({ targetId: id, answer: 'AUTHORISED', status: 'PROPOSED', outcome: null, proposedBy: proposer.admin.email });
  expect(await balanceOf(shop.seller.id)).toBe(0);

  const own = await proposer.run(CONFIRM, { id: proposal.id, reason: 'mine' });
  expect(own.errors?.[0]).toMatchObject({ message: 'You recorded this settlement by hand; another finance admin must approve it (four eyes)', extensions: { code: 'SELF_APPROVAL_NOT_ALLOWED' } });
  expect(await suite.service.em().count(AuditEntry, { targetId: proposal.id, action: 'settlement_proposal.approval_refused' })).toBe(1);
  expect(codeOf(await checker.run(PROPOSE, { input: { targetId: id, answer: 'REFUSED', reason: 'second opinion' } }))).toBe('SETTLEMENT_ALREADY_PROPOSED');
  expect((await checker.ok('{ settlementProposals { id } }')).settlementProposals.map((p: { id: string }) => p.id)).toContain(proposal.id);

  const { confirmSettlement: applied } = await checker.ok(CONFIRM, { id: proposal.id, reason: 'Checked the Customer Area too' });
  expect(applied).toMatchObject({ status: 'CONFIRMED', outcome: 'completed', reviewedByEmail: checker.admin.email });
  expect(await suite.reload(id)).toMatchObject({ status: 'completed', processorReference: 'NC6HT9CRT65ZGN82' });
  expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
  const [entry] = await suite.service.em().find(AuditEntry, { targetId: id, action: 'acquirer.settled_by_hand' });
  expect(entry).toMatchObject({ actor: checker.admin.email, reason: 'Checked the Customer Area too', details: { proposal: proposal.id, answer: 'authorised', outcome: 'completed', proposedBy: proposer.admin.email } });
  expect((await checker.ok('{ settlementProposals { id } }')).settlementProposals.map((p: { id: string }) => p.id)).not.toContain(proposal.id);

  // Adyen's AUTHORISATION arriving after all books nothing more.
  const psp = 'NC6HT9CRT65ZGN82';
  expect((await suite.adyen.notify({ eventCode: 'AUTHORISATION', pspReference: psp, merchantReference: id, amount: { currency: 'USD', value: AMOUNT }, success: true })).text).toBe('[accepted]');
  await suite.applyNotifications();
  expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
  expect(await ourViolations()).toEqual([]);
});

test('two finance admins confirm at once: one settles, the other is told it is confirmed already', async () => {
  const { id, shop } = await lostAnswer();
  const { proposeSettlement: proposal } = await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'REFUSED', reason: 'Customer Area: Refused' } });
  const third = await adminClient(suite.service, AdminRole.FINANCE);
  const answers = await Promise.all([checker.run(CONFIRM, { id: proposal.id, reason: 'a' }), third.run(CONFIRM, { id: proposal.id, reason: 'b' })]);
  expect(answers.filter((a) => !a.errors).length).toBe(1);
  expect(answers.map(codeOf).filter(Boolean)).toEqual(['SETTLEMENT_PROPOSAL_STATE_CONFLICT']);
  expect(await suite.reload(id)).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
  expect(await suite.service.em().count(AuditEntry, { targetId: id, action: 'acquirer.settled_by_hand' })).toBe(1);
  expect(await balanceOf(shop.seller.id)).toBe(0);
});

test('a refund Adyen carried out and the card scheme then failed, whose REFUND_FAILED never came: confirmed, the seller is credited back once', async () => {
  const { id, shop, refundOf } = await refundedPayment();
  expect(await balanceOf(shop.seller.id)).toBe(-FEE);
  const refund = await refundOf();
  const { proposeSettlement: proposal } = await proposer.ok(PROPOSE, { input: { targetId: refund.id, answer: 'REFUND_FAILED', reason: 'Customer Area: Refund failed, rejected by the scheme' } });
  const { confirmSettlement: applied } = await checker.ok(CONFIRM, { id: proposal.id, reason: 'Seen in the Customer Area' });
  expect(applied).toMatchObject({ status: 'CONFIRMED', outcome: 'failed' });
  expect(await refundOf()).toMatchObject({ status: 'failed', failureReason: 'failed_at_acquirer' });
  expect((await suite.reload(id)).status).toBe('completed');
  expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);

  // The notification arriving late changes nothing more.
  const failure = { eventCode: 'REFUND_FAILED', pspReference: refund.processorReference!, originalReference: (await suite.reload(id)).processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: AMOUNT }, success: true, reason: 'Refund Failed' };
  expect((await suite.adyen.notify(failure)).text).toBe('[accepted]');
  await suite.applyNotifications();
  expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
  expect(await ourViolations()).toEqual([]);
});

test('an answer that does not fit is refused; a proposal can be rejected and proposed again', async () => {
  const { id } = await lostAnswer();
  const refused = async (input: Record<string, unknown>) => (await proposer.run(PROPOSE, { input: { reason: 'r', ...input } })).errors?.[0];
  expect(await refused({ targetId: id, answer: 'AUTHORISED' })).toMatchObject({ extensions: { code: 'SETTLEMENT_ANSWER_DOES_NOT_FIT' }, message: expect.stringMatching(/reference/) });
  expect(await refused({ targetId: id, answer: 'AUTHORISED', acquirerReference: "x' or 1=1" })).toMatchObject({ extensions: { code: 'SETTLEMENT_ANSWER_DOES_NOT_FIT' } });
  expect(await refused({ targetId: id, answer: 'REFUNDED', acquirerReference: 'ABC' })).toMatchObject({ extensions: { code: 'SETTLEMENT_ANSWER_DOES_NOT_FIT' } });
  expect(await refused({ targetId: 'pay_doesnotexist000000000', answer: 'REFUSED' })).toMatchObject({ extensions: { code: 'PAYMENT_NOT_FOUND' } });
  expect(await refused({ targetId: id, answer: 'REFUSED', reason: ' ' })).toMatchObject({ extensions: { code: 'REASON_REQUIRED' } });
  expect(await refused({ targetId: 'ref_doesnotexist', answer: 'REFUNDED', acquirerReference: 'ABC' })).toMatchObject({ extensions: { code: 'REFUND_NOT_FOUND' } });

  const { proposeSettlement: first } = await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'NEVER_RECEIVED', reason: 'No trace in the Customer Area' } });
  expect((await proposer.ok(REJECT, { id: first.id })).rejectSettlement).toMatchObject({ status: 'REJECTED', reviewedByEmail: proposer.admin.email });
  expect(codeOf(await checker.run(CONFIRM, { id: first.id, reason: 'late' }))).toBe('SETTLEMENT_PROPOSAL_STATE_CONFLICT');
  expect((await suite.reload(id)).status).toBe('pending');
  await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'NEVER_RECEIVED', reason: 'Checked again: no trace' } });
  const { completed } = await paidPayment();
  expect(await refused({ targetId: completed, answer: 'AUTHORISED', acquirerReference: 'ABC' })).toMatchObject({ extensions: { code: 'SETTLEMENT_ANSWER_DOES_NOT_FIT' } });
});

test('confirmed after the acquirer settled it meanwhile: nothing moves, and the outcome says why', async () => {
  const { id, shop } = await lostAnswer();
  const { proposeSettlement: proposal } = await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'NEVER_RECEIVED', reason: 'No trace yet' } });
  expect((await suite.adyen.notify({ eventCode: 'AUTHORISATION', pspReference: 'LATE0AUTHORISED1', merchantReference: id, amount: { currency: 'USD', value: AMOUNT }, success: true })).text).toBe('[accepted]');
  await suite.applyNotifications();
  expect((await suite.reload(id)).status).toBe('completed');
  const { confirmSettlement: applied } = await checker.ok(CONFIRM, { id: proposal.id, reason: 'as proposed' });
  expect(applied).toMatchObject({ status: 'CONFIRMED', outcome: 'nothing: the payment is completed now (it was pending)' });
  expect((await suite.reload(id)).status).toBe('completed');
  expect(await balanceOf(shop.seller.id)).toBe(AMOUNT - FEE);
});

test('support and owners may not propose, confirm or reject', async () => {
  const { id } = await lostAnswer();
  const { proposeSettlement: proposal } = await proposer.ok(PROPOSE, { input: { targetId: id, answer: 'REFUSED', reason: 'r' } });
  for (const role of [AdminRole.SUPPORT, AdminRole.OWNER]) {
    const admin = await adminClient(suite.service, role);
    expect(codeOf(await admin.run(PROPOSE, { input: { targetId: id, answer: 'REFUSED', reason: 'r' } }))).toBe('FORBIDDEN_ROLE');
    expect(codeOf(await admin.run(CONFIRM, { id: proposal.id, reason: 'r' }))).toBe('FORBIDDEN_ROLE');
    expect(codeOf(await admin.run(REJECT, { id: proposal.id }))).toBe('FORBIDDEN_ROLE');
  }
  expect((await suite.reload(id)).status).toBe('pending');
});

async function paidPayment() {
  const shop = await suite.service.createShop();
  const id = (await sellerClient(suite.service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  expect((await checkoutClient(suite.service.url).pay(id, '4111111111111111')).body.data.submitCard.status).toBe('COMPLETED');
  return { completed: id, shop };
}

async function refundedPayment() {
  const { completed: id, shop } = await paidPayment();
  const support = await adminClient(suite.service, AdminRole.SUPPORT);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await proposer.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => suite.service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
  const refund = await refundOf();
  expect((await suite.adyen.notify({ eventCode: 'REFUND', pspReference: refund.processorReference!, originalReference: (await suite.reload(id)).processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: refund.amount }, success: true })).text).toBe('[accepted]');
  await suite.applyNotifications();
  await eventually(async () => (await refundOf()).status === 'refunded', 10_000, 'the REFUND notification to settle the refund');
  return { id, shop, refundOf };
}
