import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { Dispute, DisputeStatus } from '../../../src/modules/disputes/dispute.entity';
import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { SIMULATED_DISPUTE_REASON, SIMULATED_REFUND_FAILURE } from '../../../src/platform/processor/simulated-acquirer';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * The simulator's cards for what comes after a charge, over HTTP on the running service (docs/checkout.md, "Test
 * cards"): the dispute card is charged back a moment after it completes and a finance admin can have the issuer reverse
 * it; the refund-failure card's refund is carried out and then fails. Each moves the lifecycles Adyen's events move and
 * leaves the ledger's invariants whole. Under Adyen the reversal is refused (adyen-disputes.test.ts).
 */
const service = useTestService({ SIMULATED_EVENT_DELAY_MS: '300', REFUND_SWEEP_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '1000' });
const AMOUNT = 4000;
const NET = 3400;
const FEE = 600;
const ours = new Set<string>();

async function paidWith(number: string) {
  const shop = await service.createShop();
  const id = (await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount: AMOUNT })).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  expect((await checkoutClient(service.url).pay(id, number)).body.data.submitCard.status).toBe('COMPLETED');
  return { shop, id };
}

async function balanceOf(sellerId: string): Promise<number> {
  const [row] = await service.em().getConnection().execute(`select coalesce(sum("amount"), 0)::int as sum from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`, [sellerId]);
  return row.sum;
}
const kindsOf = async (paymentId: string) => (await service.em().find(LedgerEntry, { paymentId, account: LedgerAccount.SELLER_BALANCE }, { orderBy: { id: 'asc' } })).map((e) => `${e.kind} ${e.amount}`);
const ourViolations = async () => (await checkLedger(service.em())).violations.filter((v) => [...ours].some((id) => v.subject.includes(id)));

test('the dispute card completes, is charged back a moment later, and a finance admin has the issuer reverse it; support may not', async () => {
  const { shop, id } = await paidWith('4000 0000 0000 0259');
  expect(await balanceOf(shop.seller.id)).toBe(NET);
  const dispute = (await eventually(async () => service.em().findOne(Dispute, { payment: id, status: DisputeStatus.CHARGED_BACK }), 10_000, 'the chargeback to be told'))!;
  ours.add(dispute.id);
  expect(dispute).toMatchObject({ amount: AMOUNT, reason: SIMULATED_DISPUTE_REASON });
  expect(await balanceOf(shop.seller.id)).toBe(-FEE);
  // The REST answer says what the seller's integration sees of it: the payment stands completed.
  expect((await sellerClient(service.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');

  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const REVERSE = `mutation ($id: ID!) { simulateChargebackReversal(id: $id) { status } }`;
  expect((await finance.ok(`query ($id: ID!) { dispute(id: $id) { status canSimulateReversal } }`, { id: dispute.id })).dispute).toEqual({ status: 'CHARGED_BACK', canSimulateReversal: true });
  expect((await support.run(REVERSE, { id: dispute.id })).errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN_ROLE' });
  expect(await balanceOf(shop.seller.id)).toBe(-FEE);

  expect((await finance.ok(REVERSE, { id: dispute.id })).simulateChargebackReversal).toEqual({ status: 'REVERSED' });
  expect(await balanceOf(shop.seller.id)).toBe(NET);
  expect(await kindsOf(id)).toEqual([`payment ${AMOUNT}`, `fee -${FEE}`, `chargeback -${AMOUNT}`, `chargeback_reversed ${AMOUNT}`]);
  const [audited] = await service.em().find(AuditEntry, { targetId: id, action: 'dispute.reversal_simulated' });
  expect(audited).toMatchObject({ actor: finance.admin.email, details: { disputeId: dispute.id, amount: AMOUNT, status: 'reversed' } });

  // Reversed once: asked again, refused, and nothing more moves.
  const again = await finance.run(REVERSE, { id: dispute.id });
  expect(again.errors?.[0]).toMatchObject({ message: 'Only a dispute that stands charged back can be reversed (this one is reversed)', extensions: { code: 'DISPUTE_NOT_CHARGED_BACK' } });
  expect((await finance.ok(`query ($id: ID!) { dispute(id: $id) { canSimulateReversal } }`, { id: dispute.id })).dispute.canSimulateReversal).toBe(false);
  expect(await balanceOf(shop.seller.id)).toBe(NET);
  expect(await ourViolations()).toEqual([]);
});

test("the refund-failure card's refund is carried out, then fails: the seller has the money back and the payment is refundable again", async () => {
  const { shop, id } = await paidWith('4000000000005126');
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  ours.add(requestRefund.id);
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  // Carried out first (the seller debited), then the card scheme's rejection is told.
  await eventually(async () => (await kindsOf(id)).includes(`refund -${AMOUNT}`), 10_000, 'the refund to be carried out');
  await eventually(async () => (await refundOf()).status === 'failed', 10_000, 'the refund failure to be told');
  expect((await refundOf()).failureReason).toBe(SIMULATED_REFUND_FAILURE);
  expect(await kindsOf(id)).toEqual([`payment ${AMOUNT}`, `fee -${FEE}`, `refund -${AMOUNT}`, `refund_failed ${AMOUNT}`]);
  expect(await balanceOf(shop.seller.id)).toBe(NET);
  expect((await sellerClient(service.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');
  const retried = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned, sent to another card") { id amount status } }`, { p: id });
  expect(retried.requestRefund).toMatchObject({ amount: AMOUNT, status: 'REQUESTED' });
  expect(await ourViolations()).toEqual([]);
});
