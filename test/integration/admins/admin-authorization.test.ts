import { buildAppSchema } from '../../../src/apps/schema';
import { Admin } from '../../../src/modules/admins/admin.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AdminToken } from '../../../src/modules/admins/admin-token.entity';
import { adminClient, adminTeam, completedPayment, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

// Every refused call here is a failed authentication from 127.0.0.1; the guessing limit has its own tests.
const service = useTestService({ AUTH_FAILURES_PER_MINUTE: '100000' });
let team: Awaited<ReturnType<typeof adminTeam>>;

beforeAll(async () => {
  team = await adminTeam(service);
});

/**
 * Targets for every admin operation, made fresh for each caller so an allowed call always has work to do.
 * Requests are recorded by support and approved by finance, as the duties say.
 */
async function fixtures() {
  const { support, finance, owner } = team;
  const paid = await completedPayment(service, 20_000);
  const refundA = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "fixture") { id } }`, { p: paid.paymentId })).requestRefund.id;
  const other = await completedPayment(service, 20_000);
  const refundB = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "fixture") { id } }`, { p: other.paymentId })).requestRefund.id;
  const third = await completedPayment(service, 20_000, await payableShop(service));
  // Withdrawals of a shop no approved refund touches (approving one needs the seller's balance to cover it), whose
  // seller has somewhere to be paid (every withdrawal needs a payout account).
  const wd = async () => (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: third.shop.shop.id })).requestWithdrawal.id;
  const [w1, w2, w3] = [await wd(), await wd(), await wd()];
  await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: w3 });
  const victim = await service.createShop();
  const deletable = await service.createShop();
  const orphan = await service.createShop();
  await owner.ok(`mutation ($id: ID!) { deleteShop(id: $id, reason: "fixture") { id } }`, { id: orphan.shop.id });
  const inactive = await service.createShop();
  await owner.ok(`mutation ($id: ID!) { deactivateShop(id: $id, reason: "fixture") { id } }`, { id: inactive.shop.id });
  const suspended = await service.createShop();
  await owner.ok(`mutation ($id: ID!) { suspendSeller(id: $id, reason: "fixture") { id } }`, { id: suspended.seller.id });
  const colleague = await adminClient(service, AdminRole.SUPPORT);
  const colleagueToken = (await service.em().findOneOrFail(AdminToken, { admin: colleague.admin.id })).id;
  return { paid, refundA, refundB, third, w1, w2, w3, victim, deletable, orphan, inactive, suspended, colleague, colleagueToken };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
type Duty = 'support' | 'finance' | 'owner';
const ALL: Duty[] = ['support', 'finance', 'owner'];

interface Operation {
  /** The admin roles that may run it (docs/admin.md); the others get FORBIDDEN_ROLE. */
  roles: Duty[];
  /** A seller's key may run it too (for its own shop), so it is not in the non-admin matrix. */
  seller?: true;
  /**
   * The allowed call may still end in a domain error (no webhook URL, no such delivery): only the role
   * gate is checked here; those operations' own tests run them to the end.
   */
  gateOnly?: true;
  call(f: Fixtures, n: number): [string, Record<string, unknown>];
}

/** Every operation of the schema an admin may run, with variables that succeed for an allowed role. */
const OPERATIONS: Record<string, Operation> = {
  // support records requests; finance decides on money (docs/admin.md)
  requestRefund: { roles: ['support', 'finance'], call: (f) => ['mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "customer asked") { id } }', { p: f.third.paymentId }] },
  approveRefund: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: f.refundA }] },
  rejectRefund: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { rejectRefund(id: $id, reason: "no") { id } }', { id: f.refundB }] },
  requestWithdrawal: {
    roles: ['support', 'finance'],
    seller: true,
    call: (f) => ['mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }', { s: f.third.shop.shop.id }],
  },
  approveWithdrawal: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }', { id: f.w1 }] },
  rejectWithdrawal: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "no") { id } }', { id: f.w2 }] },
  markWithdrawalPaid: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-1") { id } }', { id: f.w3 }] },
  // owners: sellers and shops
  createSellerWithShop: {
    roles: ['owner'],
    call: (_f, n) => ['mutation ($e: String!) { createSellerWithShop(email: $e, shop: { shopName: "New" }) { apiKey } }', { e: `authz-${n}-${Date.now()}@shop.example` }],
  },
  createShop: { roles: ['owner'], call: (f) => ['mutation ($s: ID!) { createShop(sellerId: $s, shop: { shopName: "Again" }) { apiKey } }', { s: f.orphan.seller.id }] },
  deactivateShop: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { deactivateShop(id: $id, reason: "review") { id } }', { id: f.victim.shop.id }] },
  reactivateShop: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { reactivateShop(id: $id) { id } }', { id: f.inactive.shop.id }] },
  deleteShop: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { deleteShop(id: $id, reason: "closed") { id } }', { id: f.deletable.shop.id }] },
  suspendSeller: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { suspendSeller(id: $id, reason: "fraud") { id } }', { id: f.victim.seller.id }] },
  reactivateSeller: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { reactivateSeller(id: $id) { id } }', { id: f.suspended.seller.id }] },
  setSellerAccountStatus: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { setSellerAccountStatus(id: $id, accountStatus: VERIFIED, reason: "documents checked") { id } }', { id: f.victim.seller.id }] },
  setWebhookUrl: { roles: ['owner'], seller: true, call: (f) => ['mutation ($s: ID) { setWebhookUrl(url: null, shopId: $s) { id } }', { s: f.victim.shop.id }] },
  setWebhookEvents: { roles: ['owner'], seller: true, call: (f) => ['mutation ($s: ID) { setWebhookEvents(events: ["payment.failed"], shopId: $s) { id } }', { s: f.victim.shop.id }] },
  rotateWebhookSecret: { roles: ['owner'], seller: true, call: (f) => ['mutation ($s: ID) { rotateWebhookSecret(shopId: $s) { webhookSecret } }', { s: f.victim.shop.id }] },
  // support helps sellers with deliveries
  sendTestWebhook: { roles: ['support', 'owner'], seller: true, gateOnly: true, call: (f) => ['mutation ($s: ID) { sendTestWebhook(shopId: $s) { id } }', { s: f.victim.shop.id }] },
  resendWebhookDelivery: { roles: ['support', 'owner'], seller: true, gateOnly: true, call: () => ['mutation { resendWebhookDelivery(id: "whd_missing") { id } }', {}] },
  triggerTestEvent: { roles: ['support', 'owner'], seller: true, call: (f) => ['mutation ($s: ID) { triggerTestEvent(event: "payment.failed", shopId: $s) { eventId } }', { s: f.victim.shop.id }] },
  // owners: admins (each admin's own tokens: admin-tokens.test.ts)
  admins: { roles: ['owner'], call: () => ['{ admins { id role } }', {}] },
  adminTokens: { roles: ['owner'], call: (f) => ['query ($a: ID) { adminTokens(adminId: $a) { id } }', { a: f.colleague.admin.id }] },
  // every admin issues their own tokens only; for a colleague it is ADMIN_TOKEN_NOT_YOURS (admin-own-credentials.test.ts)
  issueAdminToken: { roles: ALL, call: () => ['mutation { issueAdminToken { token } }', {}] },
  revokeAdminToken: { roles: ['owner'], call: (f) => ['mutation ($id: ID!) { revokeAdminToken(id: $id) { id } }', { id: f.colleagueToken }] },
  inviteSeller: { roles: ['owner'], call: (f) => ['mutation ($s: ID!) { inviteSeller(sellerId: $s) }', { s: f.victim.seller.id }] },
  // the fixture seller has no two-factor (TWO_FACTOR_NOT_STARTED): the reset itself is run in account-takeover.test.ts
  resetSellerTwoFactor: { roles: ['owner'], gateOnly: true, call: (f) => ['mutation ($s: ID!) { resetSellerTwoFactor(sellerId: $s, reason: "lost phone") { id } }', { s: f.victim.seller.id }] },
  // each admin's own console sessions (admin-sign-in.test.ts); a token has no session to end
  myAdminSessions: { roles: ALL, call: () => ['{ myAdminSessions { id } }', {}] },
  adminSignOut: { roles: ALL, gateOnly: true, call: () => ['mutation { adminSignOut }', {}] },
  revokeAdminSession: { roles: ALL, gateOnly: true, call: () => ['mutation { revokeAdminSession(id: "ases_missing") }', {}] },
  // reads: every role
  currentAdmin: { roles: ALL, call: () => ['{ currentAdmin { id role } }', {}] },
  refunds: { roles: ALL, call: () => ['{ refunds { pagination { total } } }', {}] },
  refund: { roles: ALL, call: (f) => ['query ($id: ID!) { refund(id: $id) { id } }', { id: f.refundA }] },
  searchPayments: { roles: ALL, call: () => ['{ searchPayments { pagination { total } } }', {}] },
  payment: { roles: ALL, seller: true, call: (f) => ['query ($id: ID!) { payment(id: $id) { id card { last4 } } }', { id: f.paid.paymentId }] },
  shops: { roles: ALL, call: () => ['{ shops { pagination { total } } }', {}] },
  shop: { roles: ALL, call: (f) => ['query ($id: ID!) { shop(id: $id) { id } }', { id: f.victim.shop.id }] },
  seller: { roles: ALL, call: (f) => ['query ($id: ID!) { seller(id: $id) { id } }', { id: f.victim.seller.id }] },
  balance: { roles: ALL, seller: true, call: (f) => ['query ($s: ID) { balance(shopId: $s) { available } }', { s: f.paid.shop.shop.id }] },
  withdrawals: { roles: ALL, seller: true, call: () => ['{ withdrawals { pagination { total } } }', {}] },
  webhookDeliveries: { roles: ALL, seller: true, call: () => ['{ webhookDeliveries { pagination { total } } }', {}] },
  webhookDelivery: { roles: ALL, seller: true, gateOnly: true, call: () => ['{ webhookDelivery(id: "whd_missing") { id } }', {}] },
  auditLog: { roles: ALL, call: () => ['{ auditLog { pagination { total } } }', {}] },
  flaggedAcquirerNotifications: { roles: ALL, call: () => ['{ flaggedAcquirerNotifications { id } }', {}] },
  // the mail outbox (mail-outbox.test.ts): every role reads it; support and owners send a mail again
  mails: { roles: ALL, call: () => ['{ mails { pagination { total } } }', {}] },
  resendMail: { roles: ['support', 'owner'], gateOnly: true, call: () => ['mutation { resendMail(id: "mail_missing", reason: "customer asked") { id } }', {}] },
  // settling by hand (settling-by-hand.test.ts): finance only
  retryAcquirerNotification: { roles: ['finance'], gateOnly: true, call: () => ['mutation { retryAcquirerNotification(id: "0", reason: "settled at Adyen") { id } }', {}] },
  dismissAcquirerNotification: { roles: ['finance'], gateOnly: true, call: () => ['mutation { dismissAcquirerNotification(id: "0", reason: "settled at Adyen") { id } }', {}] },
  settleWithAcquirer: { roles: ['finance'], call: (f) => ['mutation ($id: ID!) { settleWithAcquirer(id: $id, reason: "customer asked") { outcome } }', { id: f.refundA }] },
  settlementProposals: { roles: ALL, call: () => ['{ settlementProposals { id } }', {}] },
  proposeSettlement: { roles: ['finance'], gateOnly: true, call: () => ['mutation { proposeSettlement(input: { targetId: "pay_missing", answer: REFUSED, reason: "read at Adyen" }) { id } }', {}] },
  confirmSettlement: { roles: ['finance'], gateOnly: true, call: () => ['mutation { confirmSettlement(id: "sp_missing", reason: "checked") { id } }', {}] },
  rejectSettlement: { roles: ['finance'], gateOnly: true, call: () => ['mutation { rejectSettlement(id: "sp_missing", reason: "wrong line") { id } }', {}] },
  // the back office (back-office-queries.test.ts): what waits, and disputes across shops, for every role
  workQueue: { roles: ALL, call: () => ['{ workQueue { refundsWaiting } }', {}] },
  disputes: { roles: ALL, call: () => ['{ disputes { pagination { total } } }', {}] },
  dispute: { roles: ALL, gateOnly: true, call: () => ['{ dispute(id: "dp_missing") { id } }', {}] },
  // the simulated acquirer's issuer reversing a chargeback (simulated-test-cards.test.ts): finance only
  simulateChargebackReversal: { roles: ['finance'], gateOnly: true, call: () => ['mutation { simulateChargebackReversal(id: "dp_missing") { id } }', {}] },
};

/**
 * What only sellers, the public checkout or the seller dashboard's accounts run (docs/dashboard.md; tested in
 * seller-accounts.test.ts); everything else in the schema must be in OPERATIONS.
 */
const NOT_FOR_ADMINS = new Set([
  'createPayment', 'submitCard', 'answerThreeDSecure', 'cancelCheckout', 'currentShop', 'payments', 'checkoutPayment',
  'signUp', 'signIn', 'signOut', 'signOutEverywhere', 'verifyEmail', 'currentSeller',
  // the dashboard session's own (authorization-matrix.test.ts): an admin token gets FORBIDDEN
  'deleteMyShop', 'createMyShop', 'setPayoutAccount', 'setMailSettings',
  'acceptInvitation', 'requestPasswordReset', 'resetPassword', 'changePassword', 'mySessions', 'revokeSession',
  'beginTwoFactor', 'confirmTwoFactor', 'disableTwoFactor', 'resendVerificationEmail', 'runLiveTest', 'liveTestAllowance',
  // a seller's own key and session: the event stream and the request log (seller-cli.test.ts, request-log.test.ts)
  'eventStream', 'requestLog',
  // the admin console's sign-in and set-up link: public, before any admin credential (admin-sign-in.test.ts)
  'adminSignIn', 'adminSetUp', 'confirmAdminSetUp',
]);

test('the list above covers every query and mutation of the schema an admin may run', async () => {
  const schema = await buildAppSchema();
  const fields = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
  expect(fields.filter((name) => !NOT_FOR_ADMINS.has(name)).sort()).toEqual(Object.keys(OPERATIONS).sort());
});

const ADMIN_ONLY = Object.keys(OPERATIONS).filter((name) => !OPERATIONS[name].seller);

describe('non-admins are refused every admin operation, and nothing changes', () => {
  let f: Fixtures;
  let sellerKey: string;
  let revokedToken: string;
  let expiredToken: string;
  beforeAll(async () => {
    f = await fixtures();
    sellerKey = (await service.createShop()).apiKey;
    const revoked = await adminClient(service);
    await service.em().nativeUpdate(Admin, { id: revoked.admin.id }, { revokedAt: new Date() });
    revokedToken = revoked.token;
    const expired = await adminClient(service);
    await service.em().nativeUpdate(AdminToken, { admin: expired.admin.id }, { expiresAt: new Date(Date.now() - 1000) });
    expiredToken = expired.token;
  });

  const callers = () =>
    [
      ['no token', undefined, 401, 'OPERATION_NOT_ALLOWED'],
      ["a seller's API key", `Bearer ${sellerKey}`, 200, 'FORBIDDEN'],
      ['a wrong admin token', `Bearer adm_${'0'.repeat(64)}`, 401, 'UNAUTHENTICATED'],
      ['a malformed admin token', 'Bearer adm_not-hex', 401, 'UNAUTHENTICATED'],
      ['a revoked admin token', `Bearer ${revokedToken}`, 401, 'UNAUTHENTICATED'],
      ['an expired admin token', `Bearer ${expiredToken}`, 401, 'UNAUTHENTICATED'],
    ] as const;

  test.each(ADMIN_ONLY)('%s', async (name) => {
    const [query, variables] = OPERATIONS[name].call(f, 0);
    for (const [who, authorization, status, code] of callers()) {
      const answer = await graphql(service.url, authorization, query, variables);
      expect([who, answer.status, answer.errors?.[0]?.extensions?.code, answer.data?.[name] ?? null]).toEqual([who, status, code, null]);
    }
  });

  test('afterwards every target is as it was, and the audit log holds no entry from these attempts', async () => {
    const state = await team.owner.ok(
      `query ($a: ID!, $b: ID!, $v: ID!) { a: refund(id: $a) { status } b: refund(id: $b) { status } shop(id: $v) { status deletedAt seller { status } } }`,
      { a: f.refundA, b: f.refundB, v: f.victim.shop.id },
    );
    expect(state).toEqual({ a: { status: 'REQUESTED' }, b: { status: 'REQUESTED' }, shop: { status: 'ACTIVE', deletedAt: null, seller: { status: 'ACTIVE' } } });
    const [row] = await service.em().getConnection().execute(`select count(*)::int as n from audit_log where target_id = ?`, [f.victim.shop.id]);
    expect(row.n).toBe(0);
  });
});

describe.each(ALL)('an admin with the %s role', (role) => {
  let f: Fixtures;
  let caller: AdminClient;
  beforeAll(async () => {
    f = await fixtures();
    caller = await adminClient(service, role as AdminRole);
  });

  test.each(Object.keys(OPERATIONS))('%s: runs it if the role allows, else FORBIDDEN_ROLE', async (name) => {
    const operation = OPERATIONS[name];
    const [query, variables] = operation.call(f, ALL.indexOf(role) + 1);
    const answer = await caller.run(query, variables);
    const code = answer.errors?.[0]?.extensions?.code;
    if (!operation.roles.includes(role)) {
      const needed = operation.roles.join(' or ');
      expect([code, answer.errors?.[0]?.message, answer.data?.[name] ?? null]).toEqual([
        'FORBIDDEN_ROLE',
        `${name} needs the ${needed} role; your admin role is ${role}`,
        null,
      ]);
    } else if (operation.gateOnly) {
      expect(code).not.toMatch(/FORBIDDEN/);
    } else {
      expect(answer.errors).toBeUndefined();
      expect(answer.data[name]).toBeTruthy();
    }
  });

  test('each refusal is in the audit log, and a refused call changed nothing', async () => {
    const refused = Object.keys(OPERATIONS).filter((name) => !OPERATIONS[name].roles.includes(role));
    const log = await team.owner.ok(`query ($a: ID) { auditLog(adminId: $a, limit: 100) { items { action targetType targetId details } } }`, { a: caller.admin.id });
    const refusals = log.auditLog.items.filter((e: { action: string }) => e.action === 'access.refused');
    expect(refusals.map((e: { targetId: string }) => e.targetId).sort()).toEqual(refused.sort());
    expect(refusals[0]).toMatchObject({ targetType: 'operation', details: { code: 'FORBIDDEN_ROLE', role } });
    const others = log.auditLog.items.filter((e: { action: string }) => e.action !== 'access.refused');
    const allowedActions: Record<Duty, string[]> = {
      support: ['refund.requested', 'withdrawal.requested', 'shop.webhook_test_sent', 'shop.webhook_delivery_resent', 'admin_token.issued'],
      finance: ['refund.requested', 'refund.approved', 'refund.rejected', 'withdrawal.requested', 'withdrawal.approved', 'withdrawal.rejected', 'withdrawal.paid', 'admin_token.issued', 'acquirer.settled_by_lookup'],
      owner: [
        'seller.created', 'shop.created', 'shop.deactivated', 'shop.reactivated', 'shop.deleted', 'seller.suspended', 'seller.reactivated', 'seller.account_status_changed',
        'shop.webhook_url_set', 'shop.webhook_events_set', 'shop.webhook_url_cleared', 'shop.webhook_secret_rotated', 'shop.webhook_test_sent', 'shop.webhook_delivery_resent',
        'admin_token.issued', 'admin_token.revoked', 'seller.invited',
      ],
    };
    expect(others.map((e: { action: string }) => e.action).filter((a: string) => !allowedActions[role].includes(a))).toEqual([]);
  });
});
