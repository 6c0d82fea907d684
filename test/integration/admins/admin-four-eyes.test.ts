import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, completedPayment, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/** Separated duties (docs/admin.md): nobody approves a request they recorded; support approves nothing. */
const service = useTestService();
let support: AdminClient;
let finance: AdminClient;
let secondFinance: AdminClient;
let owner: AdminClient;

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
  secondFinance = await adminClient(service, AdminRole.FINANCE);
  owner = await adminClient(service, AdminRole.OWNER);
});

const REQUEST_REFUND = 'mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Parcel lost") { id status requestedBy { id } } }';
const APPROVE_REFUND = 'mutation ($id: ID!) { approveRefund(id: $id) { id status reviewedBy { id } } }';
const REJECT_REFUND = 'mutation ($id: ID!) { rejectRefund(id: $id, reason: "Not eligible") { id status } }';
const REQUEST_WITHDRAWAL = 'mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id status } }';
const APPROVE_WITHDRAWAL = 'mutation ($id: ID!) { approveWithdrawal(id: $id) { id status } }';
const REFUND = 'query ($id: ID!) { refund(id: $id) { status reviewedBy { id } } }';
const WITHDRAWAL_STATUS = 'query ($s: ID!) { withdrawals(shopId: $s) { items { id status } } }';
const LOG = 'query ($t: String, $a: ID) { auditLog(targetId: $t, adminId: $a) { items { action actor details } } }';

async function refundRequestedBy(requester: AdminClient): Promise<string> {
  const { paymentId } = await completedPayment(service, 5000);
  return (await requester.ok(REQUEST_REFUND, { p: paymentId })).requestRefund.id;
}

describe('refunds', () => {
  test('a support admin records a request but cannot approve it (nor any other); finance approves it', async () => {
    const id = await refundRequestedBy(support);
    const refused = await support.run(APPROVE_REFUND, { id });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'approveRefund needs the finance role; your admin role is support',
      extensions: { code: 'FORBIDDEN_ROLE', status: 403 },
    });
    expect((await owner.ok(REFUND, { id })).refund).toEqual({ status: 'REQUESTED', reviewedBy: null });

    const approved = (await finance.ok(APPROVE_REFUND, { id })).approveRefund;
    expect(approved).toEqual({ id, status: 'APPROVED', reviewedBy: { id: finance.admin.id } });
  });

  test('a finance admin who recorded a request cannot approve it: 403, nothing moves, the refusal is audited', async () => {
    const id = await refundRequestedBy(finance);
    const refused = await finance.run(APPROVE_REFUND, { id });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'You recorded this refund request; another finance admin must approve it (four eyes)',
      extensions: { code: 'SELF_APPROVAL_NOT_ALLOWED', status: 403 },
    });
    expect(refused.data?.approveRefund ?? null).toBeNull();
    expect((await owner.ok(REFUND, { id })).refund).toEqual({ status: 'REQUESTED', reviewedBy: null });

    const log = (await owner.ok(LOG, { t: id })).auditLog.items;
    expect(log).toEqual([
      { action: 'refund.approval_refused', actor: finance.admin.email, details: { code: 'SELF_APPROVAL_NOT_ALLOWED' } },
      { action: 'refund.requested', actor: finance.admin.email, details: expect.any(Object) },
    ]);

    expect((await secondFinance.ok(APPROVE_REFUND, { id })).approveRefund.status).toBe('APPROVED');
  });

  test('twenty approvals of their own request sent at once: every one refused by the database condition', async () => {
    const id = await refundRequestedBy(finance);
    const answers = await Promise.all(Array.from({ length: 20 }, () => finance.run(APPROVE_REFUND, { id })));
    expect(new Set(answers.map((a) => a.errors?.[0]?.extensions?.code))).toEqual(new Set(['SELF_APPROVAL_NOT_ALLOWED']));
    expect((await owner.ok(REFUND, { id })).refund.status).toBe('REQUESTED');
  });

  test('rejecting one\'s own request is allowed: it moves no money (docs/admin.md)', async () => {
    const id = await refundRequestedBy(finance);
    expect((await finance.ok(REJECT_REFUND, { id })).rejectRefund.status).toBe('REJECTED');
  });
});

describe('withdrawals', () => {
  test('the admin who requested a withdrawal cannot approve it; another finance admin can', async () => {
    const { shop } = await completedPayment(service, 10_000, await payableShop(service));
    const id = (await finance.ok(REQUEST_WITHDRAWAL, { s: shop.shop.id })).requestWithdrawal.id;
    const refused = await finance.run(APPROVE_WITHDRAWAL, { id });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'You recorded this withdrawal request; another finance admin must approve it (four eyes)',
      extensions: { code: 'SELF_APPROVAL_NOT_ALLOWED' },
    });
    expect((await owner.ok(WITHDRAWAL_STATUS, { s: shop.shop.id })).withdrawals.items).toEqual([{ id, status: 'REQUESTED' }]);
    expect((await owner.ok(LOG, { t: id })).auditLog.items[0]).toMatchObject({ action: 'withdrawal.approval_refused', actor: finance.admin.email });

    expect((await secondFinance.ok(APPROVE_WITHDRAWAL, { id })).approveWithdrawal.status).toBe('APPROVED');
  });

  test('support requests on a seller\'s behalf and finance approves; a seller\'s own request is approved by any finance admin', async () => {
    const { shop } = await completedPayment(service, 10_000, await payableShop(service));
    const bySupport = (await support.ok(REQUEST_WITHDRAWAL, { s: shop.shop.id })).requestWithdrawal.id;
    expect((await support.run(APPROVE_WITHDRAWAL, { id: bySupport })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN_ROLE');
    expect((await finance.ok(APPROVE_WITHDRAWAL, { id: bySupport })).approveWithdrawal.status).toBe('APPROVED');

    const bySeller = (await graphqlAsSeller(shop.apiKey, 'mutation { requestWithdrawal(amount: 1000) { id } }')).requestWithdrawal.id;
    expect((await finance.ok(APPROVE_WITHDRAWAL, { id: bySeller })).approveWithdrawal.status).toBe('APPROVED');
  });
});

test('a support admin\'s refused approval is in the audit log under their name, with the role it needed', async () => {
  const id = await refundRequestedBy(support);
  await support.run(APPROVE_REFUND, { id });
  const entries = (await owner.ok(LOG, { a: support.admin.id })).auditLog.items;
  expect(entries[0]).toEqual({
    action: 'access.refused',
    actor: support.admin.email,
    details: { code: 'FORBIDDEN_ROLE', role: 'support', needed: ['finance'], arguments: { id } },
  });
});

async function graphqlAsSeller(apiKey: string, query: string) {
  const answer = await graphql(service.url, `Bearer ${apiKey}`, query);
  if (answer.errors?.length) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
