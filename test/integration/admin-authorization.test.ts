import { buildAppSchema } from '../../src/graphql/schema';
import { Admin } from '../../src/admins/admin.entity';
import { adminClient, completedPayment, graphql } from '../support/admin-client';
import { startTestService, type TestService } from '../support/test-service';

let service: TestService;
let admin: Awaited<ReturnType<typeof adminClient>>;

beforeAll(async () => {
  // Every refused call here is a failed authentication from 127.0.0.1; the guessing limit has its own tests.
  service = await startTestService({ AUTH_FAILURES_PER_MINUTE: '100000' });
  admin = await adminClient(service);
});
afterAll(() => service.stop());

/** Targets for every admin mutation, made fresh for each caller so an allowed call always has work to do. */
async function fixtures() {
  const paid = await completedPayment(service, 20_000);
  const refundA = (await admin.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "fixture") { id } }`, { p: paid.paymentId })).requestRefund.id;
  const other = await completedPayment(service, 20_000);
  const refundB = (await admin.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "fixture") { id } }`, { p: other.paymentId })).requestRefund.id;
  const third = await completedPayment(service, 20_000);
  const wd = async () => (await admin.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: paid.shop.shop.id })).requestWithdrawal.id;
  const [w1, w2, w3] = [await wd(), await wd(), await wd()];
  await admin.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: w3 });
  const victim = await service.createShop();
  const deletable = await service.createShop();
  const orphan = await service.createShop();
  await admin.ok(`mutation ($id: ID!) { deleteShop(id: $id, reason: "fixture") { id } }`, { id: orphan.shop.id });
  const inactive = await service.createShop();
  await admin.ok(`mutation ($id: ID!) { deactivateShop(id: $id, reason: "fixture") { id } }`, { id: inactive.shop.id });
  const suspended = await service.createShop();
  await admin.ok(`mutation ($id: ID!) { suspendSeller(id: $id, reason: "fixture") { id } }`, { id: suspended.seller.id });
  return { paid, refundA, refundB, third, w1, w2, w3, victim, deletable, orphan, inactive, suspended };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;

/** Every admin-only mutation of the schema, with variables that succeed for an admin. */
const ADMIN_MUTATIONS: Record<string, (f: Fixtures, n: number) => [string, Record<string, unknown>]> = {
  requestRefund: (f) => ['mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "customer asked") { id } }', { p: f.third.paymentId }],
  approveRefund: (f) => ['mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: f.refundA }],
  rejectRefund: (f) => ['mutation ($id: ID!) { rejectRefund(id: $id, reason: "no") { id } }', { id: f.refundB }],
  approveWithdrawal: (f) => ['mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }', { id: f.w1 }],
  rejectWithdrawal: (f) => ['mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "no") { id } }', { id: f.w2 }],
  markWithdrawalPaid: (f) => ['mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-1") { id } }', { id: f.w3 }],
  createSellerWithShop: (_f, n) => [
    'mutation ($e: String!) { createSellerWithShop(email: $e, shop: { shopName: "New" }) { apiKey } }',
    { e: `authz-${n}-${Date.now()}@shop.example` },
  ],
  createShop: (f) => ['mutation ($s: ID!) { createShop(sellerId: $s, shop: { shopName: "Again" }) { apiKey } }', { s: f.orphan.seller.id }],
  deactivateShop: (f) => ['mutation ($id: ID!) { deactivateShop(id: $id, reason: "review") { id } }', { id: f.victim.shop.id }],
  reactivateShop: (f) => ['mutation ($id: ID!) { reactivateShop(id: $id) { id } }', { id: f.inactive.shop.id }],
  deleteShop: (f) => ['mutation ($id: ID!) { deleteShop(id: $id, reason: "closed") { id } }', { id: f.deletable.shop.id }],
  suspendSeller: (f) => ['mutation ($id: ID!) { suspendSeller(id: $id, reason: "fraud") { id } }', { id: f.victim.seller.id }],
  reactivateSeller: (f) => ['mutation ($id: ID!) { reactivateSeller(id: $id) { id } }', { id: f.suspended.seller.id }],
};

const ADMIN_QUERIES: Record<string, (f: Fixtures) => [string, Record<string, unknown>]> = {
  refunds: () => ['{ refunds { pagination { total } } }', {}],
  refund: (f) => ['query ($id: ID!) { refund(id: $id) { id } }', { id: f.refundA }],
  searchPayments: () => ['{ searchPayments { pagination { total } } }', {}],
  shops: () => ['{ shops { pagination { total } } }', {}],
  shop: (f) => ['query ($id: ID!) { shop(id: $id) { id } }', { id: f.victim.shop.id }],
  seller: (f) => ['query ($id: ID!) { seller(id: $id) { id } }', { id: f.victim.seller.id }],
  auditLog: () => ['{ auditLog { pagination { total } } }', {}],
};

/** Mutations that are not admin-only, and who may call them. */
const NOT_ADMIN_ONLY = new Set([
  'createPayment', // seller
  'submitCard', 'answerThreeDSecure', 'cancelCheckout', // public checkout
  'requestWithdrawal', // seller (own shop) or admin
  'setWebhookUrl', 'rotateWebhookSecret', 'sendTestWebhook', 'resendWebhookDelivery', // seller (own shop) or admin
]);

test('the list above covers every admin-only mutation of the schema', async () => {
  const mutations = Object.keys((await buildAppSchema()).getMutationType()!.getFields());
  expect(mutations.filter((name) => !NOT_ADMIN_ONLY.has(name)).sort()).toEqual(Object.keys(ADMIN_MUTATIONS).sort());
});

describe('non-admins are refused every admin operation, and nothing changes', () => {
  let f: Fixtures;
  let sellerKey: string;
  let revokedToken: string;
  beforeAll(async () => {
    f = await fixtures();
    sellerKey = (await service.createShop()).apiKey;
    const revoked = await adminClient(service);
    await service.em().nativeUpdate(Admin, { id: revoked.admin.id }, { revokedAt: new Date() });
    revokedToken = revoked.token;
  });

  const callers = () =>
    [
      ['no token', undefined, 401, 'OPERATION_NOT_ALLOWED'],
      ["a seller's API key", `Bearer ${sellerKey}`, 200, 'FORBIDDEN'],
      ['a wrong admin token', `Bearer adm_${'0'.repeat(64)}`, 401, 'UNAUTHENTICATED'],
      ['a malformed admin token', 'Bearer adm_not-hex', 401, 'UNAUTHENTICATED'],
      ['a revoked admin token', `Bearer ${revokedToken}`, 401, 'UNAUTHENTICATED'],
    ] as const;

  test.each(Object.keys(ADMIN_MUTATIONS))('mutation %s', async (name) => {
    const [query, variables] = ADMIN_MUTATIONS[name](f, 0);
    for (const [who, authorization, status, code] of callers()) {
      const answer = await graphql(service.url, authorization, query, variables);
      expect([who, answer.status, answer.errors?.[0]?.extensions?.code, answer.data?.[name] ?? null]).toEqual([who, status, code, null]);
    }
  });

  test.each(Object.keys(ADMIN_QUERIES))('query %s', async (name) => {
    const [query, variables] = ADMIN_QUERIES[name](f);
    for (const [who, authorization, status, code] of callers()) {
      const answer = await graphql(service.url, authorization, query, variables);
      expect([who, answer.status, answer.errors?.[0]?.extensions?.code, answer.data?.[name] ?? null]).toEqual([who, status, code, null]);
    }
  });

  test('afterwards every target is as it was, and the audit log holds no entry from these attempts', async () => {
    const state = await admin.ok(
      `query ($a: ID!, $b: ID!, $v: ID!) { a: refund(id: $a) { status } b: refund(id: $b) { status } shop(id: $v) { status deletedAt seller { status } } }`,
      { a: f.refundA, b: f.refundB, v: f.victim.shop.id },
    );
    expect(state).toEqual({ a: { status: 'REQUESTED' }, b: { status: 'REQUESTED' }, shop: { status: 'ACTIVE', deletedAt: null, seller: { status: 'ACTIVE' } } });
    const [row] = await service.em().getConnection().execute(`select count(*)::int as n from audit_log where target_id = ?`, [f.victim.shop.id]);
    expect(row.n).toBe(0);
  });
});

describe('an admin may run every admin operation', () => {
  let f: Fixtures;
  beforeAll(async () => {
    f = await fixtures();
  });

  test.each(Object.keys(ADMIN_MUTATIONS))('mutation %s', async (name) => {
    const [query, variables] = ADMIN_MUTATIONS[name](f, 1);
    const answer = await admin.run(query, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data[name]).toBeTruthy();
  });

  test.each(Object.keys(ADMIN_QUERIES))('query %s', async (name) => {
    const [query, variables] = ADMIN_QUERIES[name](f);
    const answer = await admin.run(query, variables);
    expect(answer.errors).toBeUndefined();
    expect(answer.data[name]).toBeTruthy();
  });
});
