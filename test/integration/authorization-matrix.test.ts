import request from 'supertest';
import { AdminRole } from '../../src/admins/admin-role';
import { adminClient } from '../support/admin-client';
import { CHECKOUT_DOCUMENT } from '../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { signUpSeller, type DashboardSession } from '../support/dashboard-client';
import { adminSignedIn, type AdminSession } from '../support/admin-session';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Every REST route and every seller or public GraphQL operation, tried with each kind of caller, admins of
 * each of the three roles among them; only the intended cells succeed (object- and function-level
 * authorization). Admin operations have their own schema-driven matrix, every operation against every role,
 * in admin-authorization.test.ts.
 */
let service: TestService;
let owner: string;
let other: string;
let admins: Record<AdminCaller, string>;
let paymentId: string;
/** Dashboard sessions: of the seller who owns `paymentId`, and of another seller. */
let sessions: Record<SessionCaller, DashboardSession>;
/** An owner admin signed in at /admin (password and TOTP): a session cookie, not a token. */
let adminSession: AdminSession;

beforeAll(async () => {
  // Many callers are refused on purpose: the per-client failure budget is not what this file tests.
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000' });
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
  adminSession = (await adminSignedIn(service, AdminRole.OWNER)).session;
  paymentId = (await sellerClient(service.url, owner).create(VALID_PAYMENT)).body.data.id;
});
afterAll(() => service.stop());

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

const REST: [string, (caller: Caller) => request.Test, Record<Caller, [number, string?]>][] = [
  ['GET /api/v1/payments/test', (c) => as(request(service.url).get('/api/v1/payments/test'), c), rest(200, 200)],
  ['POST /api/v1/payments', (c) => as(request(service.url).post('/api/v1/payments').send(VALID_PAYMENT), c), rest(200, 200)],
  ['GET /api/v1/payments', (c) => as(request(service.url).get('/api/v1/payments'), c), rest(200, 200)],
  ['GET /api/v1/payments/:id (owner\'s payment)', (c) => as(request(service.url).get(`/api/v1/payments/${paymentId}`), c), rest(404, 200)],
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
];

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
