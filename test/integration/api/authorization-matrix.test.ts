import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { REST_ROUTES } from '../../../src/api/rest/routes';
import { adminClient } from '../../support/admin-client';
import { CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { adminSignedIn, type AdminSession } from '../../support/admin-session';
import { useTestService } from '../../support/test-service';

/**
 * Every REST route and every seller or public GraphQL operation, tried with each kind of caller, admins of
 * each of the three roles among them; only the intended cells succeed (object- and function-level
 * authorization). Admin operations have their own schema-driven matrix, every operation against every role,
 * in admin-authorization.test.ts.
 */
// Many callers are refused on purpose: the per-client failure budget is not what this file tests.
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000' });
let owner: string;
let other: string;
let admins: Record<AdminCaller, string>;
let paymentId: string;
let ownerShopId: string;
const VALID_PAYMENT_EMAIL = 'matrix-customer@example.com';
/** Dashboard sessions: of the seller who owns `paymentId`, and of another seller. */
let sessions: Record<SessionCaller, DashboardSession>;
/** An owner admin signed in at /admin (password and TOTP): a session cookie, not a token. */
let adminSession: AdminSession;

beforeAll(async () => {
  const ownerSeller = await signUpSeller(service.url);
  const otherSeller = await signUpSeller(service.url);
  owner = ownerSeller.apiKey;
  other = otherSeller.apiKey;
  sessions = { 'owner session': ownerSeller.session, 'other session': otherSeller.session };
  admins = {
    'support admin': (await adminClient(service, AdminRole.SUPPORT)).token,
    'finance admin': (await adminClient(service, AdminRole.FINANCE)).token,
    'owner admin': (await adminClient(service, AdminRole.OWNER)).token,
    'admin session': '',
  };
  ownerShopId = ownerSeller.shopId;
  adminSession = (await adminSignedIn(service, AdminRole.OWNER)).session;
  paymentId = (await sellerClient(service.url, owner).create({ ...VALID_PAYMENT, customer_email: VALID_PAYMENT_EMAIL })).body.data.id;
});

type AdminCaller = 'support admin' | 'finance admin' | 'owner admin' | 'admin session';
type SessionCaller = 'owner session' | 'other session';
type Caller = 'none' | 'wrong key' | 'other shop' | AdminCaller | 'owner' | SessionCaller;
const SESSION_CALLERS: SessionCaller[] = ['owner session', 'other session'];
const ADMIN_CALLERS: AdminCaller[] = ['support admin', 'finance admin', 'owner admin', 'admin session'];
const header = (caller: Caller): string | undefined => {
  if (SESSION_CALLERS.includes(caller as SessionCaller)) return undefined;
  const keys: Record<Exclude<Caller, AdminCaller | SessionCaller>, string | undefined> = { none: undefined, 'wrong key': `Bearer svc_live_${'1'.repeat(64)}`, 'other shop': `Bearer ${other}`, owner: `Bearer ${owner}` };
  return ADMIN_CALLERS.includes(caller as AdminCaller) ? `Bearer ${admins[caller as AdminCaller]}` : keys[caller as Exclude<Caller, AdminCaller | SessionCaller>];
};

/** The caller's credentials on a request: a bearer header, or a session's cookie and CSRF header. */
function as(req: request.Test, caller: Caller): request.Test {
  if (caller === 'admin session') return req.set('Cookie', adminSession.cookie).set('X-CSRF-Token', adminSession.csrfToken);
  const session = sessions[caller as SessionCaller];
  if (session) return req.set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken);
  return withAuth(req, header(caller));
}

/** The same answer for an admin token of every role. */
const asEveryAdmin = <T>(answer: T) => Object.fromEntries(ADMIN_CALLERS.map((c) => [c, answer])) as Record<AdminCaller, T>;

/**
 * The event stream answers for as long as the client listens: the test reads up to its first message, `ready`, then
 * hangs up. An opened stream is written `{ success: true }` here, a refusal is its envelope.
 */
function untilReady(res: NodeJS.ReadableStream & { destroy(): void }, callback: (error: Error | null, body: unknown) => void) {
  let text = '';
  let done = false;
  const finish = (body: unknown) => {
    if (!done) callback(null, body);
    done = true;
  };
  res.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    if (/^event: ready$/m.test(text)) {
      res.destroy();
      finish({ success: true });
    }
  });
  res.on('end', () => finish(text ? JSON.parse(text) : {}));
}

const REST: [string, (caller: Caller) => PromiseLike<{ status: number; body: any }>, Record<Caller, [number, string?]>][] = [
  ['GET /api/v1/payments/test', (c) => as(request(service.url).get('/api/v1/payments/test'), c), rest(200, 200)],
  ['POST /api/v1/payments', (c) => as(request(service.url).post('/api/v1/payments').send(VALID_PAYMENT), c), rest(200, 200)],
  ['GET /api/v1/payments', (c) => as(request(service.url).get('/api/v1/payments'), c), rest(200, 200)],
  ['GET /api/v1/payments/:id (owner\'s payment)', (c) => as(request(service.url).get(`/api/v1/payments/${paymentId}`), c), rest(404, 200)],
  ['GET /api/v1/events/stream', (c) => as(request(service.url).get('/api/v1/events/stream').buffer(true).parse(untilReady as never), c), rest(200, 200)],
];

/**
 * Anonymous and wrong keys: 401; admin tokens are not API keys: 401; neither are dashboard or admin sessions (the REST
 * facade is for API keys; the cookie is not looked at): 401; another shop and the owner as given.
 */
function rest(otherShop: number, ownerStatus: number): Record<Caller, [number, string?]> {
  return {
    none: [401, 'API key required'], 'wrong key': [401, 'Invalid API key'], ...asEveryAdmin<[number, string?]>([401, 'Invalid API key']),
    'other shop': [otherShop, otherShop === 404 ? 'Payment not found' : undefined], owner: [ownerStatus],
    'owner session': [401, 'API key required'], 'other session': [401, 'API key required'], 'admin session': [401, 'API key required'],
  };
}

function withAuth(req: request.Test, authorization: string | undefined): request.Test {
  return authorization ? req.set('Authorization', authorization) : req;
}

const CALLERS: Caller[] = ['none', 'wrong key', 'other shop', ...ADMIN_CALLERS, 'owner', ...SESSION_CALLERS];

test('the REST rows cover every route of the table (src/api/rest/routes.ts): a new route needs its row here', () => {
  const rows = REST.map(([name]) => name.replace(/ \(.*\)$/, ''));
  expect([...rows].sort()).toEqual(REST_ROUTES.map((route) => `${route.method.toUpperCase()} /api/v1${route.path}`).sort());
});

describe.each(REST)('%s', (_name, send, expected) => {
  test.each(CALLERS)('as %s', async (caller) => {
    const res = await send(caller);
    const [status, message] = expected[caller];
    expect(res.status).toBe(status);
    if (message) expect(res.body).toEqual({ success: false, error: message });
    else expect(res.body.success).toBe(true);
  });
});

const graphql = (caller: Caller, query: string, variables: object = {}) =>
  as(request(service.url).post('/graphql').set('Content-Type', 'application/json'), caller).send({ query, variables });

/** What each caller gets from the seller operations, by error code (null = data). */
const SELLER_OPERATIONS: [string, string, () => object, Record<Caller, string | null>][] = [
  ['currentShop', '{ currentShop { id name } }', () => ({}), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': null, ...asEveryAdmin('FORBIDDEN'), owner: null, 'owner session': null, 'other session': null }],
  ['payment(id) of the owner', 'query($id: ID!) { payment(id: $id) { id amount } }', () => ({ id: paymentId }), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': 'PAYMENT_NOT_FOUND', ...asEveryAdmin(null), owner: null, 'owner session': null, 'other session': 'PAYMENT_NOT_FOUND' }],
  ['payments', '{ payments { items { id } } }', () => ({}), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': null, ...asEveryAdmin('FORBIDDEN'), owner: null, 'owner session': null, 'other session': null }],
  ['createPayment', 'mutation($input: CreatePaymentInput!) { createPayment(input: $input) { payment { id } } }', () => ({ input: { amount: 100, currency: 'usd', returnUrl: 'https://a.example/' } }), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': null, ...asEveryAdmin('FORBIDDEN'), owner: null, 'owner session': null, 'other session': null }],
  ['requestLog', '{ requestLog { items { id path } } }', () => ({}), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': null, ...asEveryAdmin('FORBIDDEN'), owner: null, 'owner session': null, 'other session': null }],
  ['eventStream', '{ eventStream { cursor events { id } } }', () => ({}), { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': null, ...asEveryAdmin('FORBIDDEN'), owner: null, 'owner session': null, 'other session': null }],
];

/**
 * The dashboard's own operations: a session reaches its own seller's data; an API key (perhaps the
 * leaked one) may not read a payment's story, ask for a refund, delete or replace its shop. Every allowed cell
 * ends in a harmless domain answer, so nothing changes: the payment is pending (no refund), the name typed is
 * wrong (no deletion), the seller has a shop (no second one).
 */
const KEY_REFUSED = { none: 'OPERATION_NOT_ALLOWED', 'wrong key': 'INVALID_API_KEY', 'other shop': 'FORBIDDEN', owner: 'FORBIDDEN' } as const;
const DASHBOARD_OPERATIONS: [string, string, () => object, Record<Caller, string | null>][] = [
  ["searchPayments by the owner's payment id", 'query($id: ID!) { searchPayments(filter: { id: $id }) { items { id } } }', () => ({ id: paymentId }), { ...KEY_REFUSED, ...asEveryAdmin(null), 'owner session': null, 'other session': null }],
  ["searchPayments naming the owner's shop", 'query($s: ID!) { searchPayments(filter: { shopId: $s }) { items { id } } }', () => ({ s: ownerShopId }), { ...KEY_REFUSED, ...asEveryAdmin(null), 'owner session': null, 'other session': 'SHOP_NOT_FOUND' }],
  ['payment(id) with its story (fee, net, card, refunds, deliveries)', 'query($id: ID!) { payment(id: $id) { id fee netAmount checkoutStage card { last4 } refunds { id } webhookDeliveries { id } } }', () => ({ id: paymentId }), { ...KEY_REFUSED, 'other shop': 'PAYMENT_NOT_FOUND', ...asEveryAdmin(null), 'owner session': null, 'other session': 'PAYMENT_NOT_FOUND' }],
  ["requestRefund for the owner's (pending) payment", 'mutation($id: ID!) { requestRefund(paymentId: $id, reason: "matrix") { id } }', () => ({ id: paymentId }), { ...KEY_REFUSED, 'support admin': 'REFUND_PAYMENT_NOT_COMPLETED', 'finance admin': 'REFUND_PAYMENT_NOT_COMPLETED', 'owner admin': 'FORBIDDEN_ROLE', 'admin session': 'FORBIDDEN_ROLE', 'owner session': 'REFUND_PAYMENT_NOT_COMPLETED', 'other session': 'PAYMENT_NOT_FOUND' }],
  ['deleteMyShop with a wrong name', `mutation { deleteMyShop(shopName: "not the name", currentPassword: "${STRONG_PASSWORD}") { id } }`, () => ({}), { ...KEY_REFUSED, ...asEveryAdmin('FORBIDDEN'), 'owner session': 'SHOP_NAME_MISMATCH', 'other session': 'SHOP_NAME_MISMATCH' }],
  ['createMyShop while the shop lives', `mutation { createMyShop(shopName: "Second", currentPassword: "${STRONG_PASSWORD}") { apiKey } }`, () => ({}), { ...KEY_REFUSED, ...asEveryAdmin('FORBIDDEN'), 'owner session': 'SELLER_ALREADY_HAS_SHOP', 'other session': 'SELLER_ALREADY_HAS_SHOP' }],
  ['mySessions', '{ mySessions { id current } }', () => ({}), { ...KEY_REFUSED, 'other shop': 'SESSION_REQUIRED', owner: 'SESSION_REQUIRED', ...asEveryAdmin('FORBIDDEN'), 'owner session': null, 'other session': null }],
  ['setPayoutAccount with an invalid number', 'mutation { setPayoutAccount(holder: "A", accountNumber: "12") { holder } }', () => ({}), { ...KEY_REFUSED, ...asEveryAdmin('FORBIDDEN'), 'owner session': 'PAYOUT_ACCOUNT_NUMBER_INVALID', 'other session': 'PAYOUT_ACCOUNT_NUMBER_INVALID' }],
  ['currentSeller with its payout account', '{ currentSeller { id payoutAccount { accountNumberMasked } } }', () => ({}), { ...KEY_REFUSED, 'other shop': 'SESSION_REQUIRED', owner: 'SESSION_REQUIRED', ...asEveryAdmin('FORBIDDEN'), 'owner session': null, 'other session': null }],
  ['currentSeller with its shop', '{ currentSeller { id shop { id webhookUrl } } }', () => ({}), { ...KEY_REFUSED, 'other shop': 'SESSION_REQUIRED', owner: 'SESSION_REQUIRED', ...asEveryAdmin('FORBIDDEN'), 'owner session': null, 'other session': null }],
];

describe.each(DASHBOARD_OPERATIONS)('GraphQL (dashboard) %s', (_name, query, variables, expected) => {
  test.each(CALLERS)('as %s', async (caller) => {
    const res = await graphql(caller, query, variables());
    const code = res.body.errors?.[0]?.extensions?.code ?? null;
    expect(code).toBe(expected[caller]);
    if (expected[caller] === null) expect(res.body.data).toBeTruthy();
  });
});

test("a payout account is the session's own seller's, and its number is never answered whole", async () => {
  const set = await graphql('owner session', `mutation { setPayoutAccount(holder: "Owner Ltd", accountNumber: "GB82 WEST 1234 5698 7654 32", currentPassword: "${STRONG_PASSWORD}") { holder accountNumberMasked } }`);
  expect(set.body.data.setPayoutAccount).toEqual({ holder: 'Owner Ltd', accountNumberMasked: '•••• 5432' });
  const theirs = await graphql('other session', '{ currentSeller { payoutAccount { holder } } }');
  expect(theirs.body.data.currentSeller.payoutAccount).toBeNull();
  const admin = await graphql('finance admin', 'query($s: ID!) { shop(id: $s) { seller { payoutAccount { holder accountNumberMasked } } } }', { s: ownerShopId });
  expect(JSON.stringify(admin.body)).not.toContain('98765432');
  expect(admin.body.data.shop.seller.payoutAccount.accountNumberMasked).toBe('•••• 5432');
});

test("another seller's session finds none of the owner's payments, by id, e-mail or listing, and lists only its own sessions", async () => {
  for (const filter of [{ id: paymentId }, { customerEmail: VALID_PAYMENT_EMAIL }, {}]) {
    const res = await graphql('other session', 'query($f: PaymentSearchInput) { searchPayments(filter: $f) { items { id } } }', { f: filter });
    expect(res.body.data.searchPayments.items.map((p: { id: string }) => p.id)).not.toContain(paymentId);
  }
  const own = await graphql('owner session', 'query($id: ID!) { searchPayments(filter: { id: $id }) { items { id } } }', { id: paymentId });
  expect(own.body.data.searchPayments.items).toEqual([{ id: paymentId }]);
  const mine = (await graphql('owner session', '{ mySessions { id } }')).body.data.mySessions.map((s: { id: string }) => s.id);
  const theirs = (await graphql('other session', '{ mySessions { id } }')).body.data.mySessions.map((s: { id: string }) => s.id);
  expect(mine.length).toBeGreaterThan(0);
  expect(theirs.filter((id: string) => mine.includes(id))).toEqual([]);
});

describe.each(SELLER_OPERATIONS)('GraphQL %s', (_name, query, variables, expected) => {
  test.each(CALLERS)('as %s', async (caller) => {
    const res = await graphql(caller, query, variables());
    const code = res.body.errors?.[0]?.extensions?.code ?? null;
    expect(code).toBe(expected[caller]);
    if (expected[caller] === null) expect(res.body.data).toBeTruthy();
  });
});

test.each(['other shop', 'other session'] as const)('%s, listing payments, sees none of the owner\'s', async (caller) => {
  const res = await graphql(caller, '{ payments { items { id } } }');
  expect(res.body.data.payments.items.map((p: { id: string }) => p.id)).not.toContain(paymentId);
});

test("the owner's session lists the owner's payment, as the owner's key does", async () => {
  const res = await graphql('owner session', '{ payments { items { id } } }');
  expect(res.body.data.payments.items.map((p: { id: string }) => p.id)).toContain(paymentId);
});

test.each(CALLERS)('the public checkout operations answer %s the same way (the payment id is the capability)', async (caller) => {
  const res = await as(request(service.url).post('/graphql').set('Content-Type', 'application/json'), caller)
    .send({ query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id: paymentId } });
  if (caller === 'wrong key') expect(res.body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  else expect(res.body.data.checkoutPayment).toMatchObject({ id: paymentId, status: 'PENDING' });
  expect(JSON.stringify(res.body)).not.toMatch(/customer|metadata/i);
});
