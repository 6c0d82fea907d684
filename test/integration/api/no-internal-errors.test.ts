import request from 'supertest';
import {
  getNamedType,
  isEnumType,
  isInterfaceType,
  isLeafType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { buildAppSchema } from '../../../src/apps/schema';
import { Seller } from '../../../src/modules/identity/seller.entity';
import { adminTeam, givePayoutAccount, graphql } from '../../support/admin-client';
import { adminSignedIn, type AdminSession } from '../../support/admin-session';
import { CHECKOUT_DOCUMENT, checkoutClient } from '../../support/checkout-client';
import { signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { FAST_WEBHOOKS, settledDelivery } from '../../support/webhook-support';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { Dispute } from '../../../src/modules/disputes/dispute.entity';
import { applyDisputeNotice } from '../../../src/modules/disputes/dispute.service';

/**
 * No field a caller can reach answers the spec's 500 (`INTERNAL`) or makes the service log an error. For
 * each kind of caller (a seller's API key, a dashboard session, an admin token of each role, an admin
 * console session, and the anonymous checkout), every root query field of the built schema is sent with its
 * fields and, one level down, each object field's fields, its required arguments filled with ids of rows
 * this file makes. A refusal (FORBIDDEN, not found …) is a fine answer; a fault is not.
 */
const service = useTestService({
  ...FAST_WEBHOOKS,
  // One caller sends every field of the schema: the per-key and per-client budgets have their own tests.
  RATE_LIMIT_PER_MINUTE: '1000000',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  GRAPHQL_COST_PER_MINUTE: '1000000000',
});
let receiver: Receiver;
let schema: GraphQLSchema;
let rows: { shopId: string; sellerId: string; paymentId: string; pendingPaymentId: string; refundId: string; withdrawalId: string; deliveryId: string; disputeId: string };
let callers: Record<Caller, (req: request.Test) => request.Test>;

type Caller = 'API key seller' | 'dashboard session' | 'support admin' | 'finance admin' | 'owner admin' | 'admin session' | 'anonymous';
const CALLERS: Caller[] = ['API key seller', 'dashboard session', 'support admin', 'finance admin', 'owner admin', 'admin session', 'anonymous'];
/** What error-answers.ts makes of an unexpected error (src/platform/http/error-answer.ts: the spec's 500). */
const FAULT_CODES = new Set(['INTERNAL', 'INTERNAL_SERVER_ERROR']);

beforeAll(async () => {
  receiver = await startReceiver();
  schema = await buildAppSchema();
  const team = await adminTeam(service);
  const seller = await signUpSeller(service.url);
  const bearer = (token: string) => `Bearer ${token}`;
  const set = await graphql(service.url, bearer(seller.apiKey), 'mutation ($u: String) { setWebhookUrl(url: $u) { id } }', { u: receiver.url });
  if (set.errors) throw new Error(JSON.stringify(set.errors));

  // A completed payment (with its webhook delivery, a refund request and a withdrawal), and a pending one.
  const shopKey = sellerClient(service.url, seller.apiKey);
  const paymentId = (await shopKey.create({ ...VALID_PAYMENT, amount: 20_000 })).body.data.id as string;
  const paid = await checkoutClient(service.url).pay(paymentId, '4242424242424242');
  if (paid.body.data?.submitCard?.status !== 'COMPLETED') throw new Error(JSON.stringify(paid.body));
  const pendingPaymentId = (await shopKey.create(VALID_PAYMENT)).body.data.id as string;
  // The seller proves its address and saves a payout account (withdrawals wait for both).
  await service.em().nativeUpdate(Seller, { id: seller.sellerId }, { emailVerifiedAt: new Date() });
  await givePayoutAccount(service, seller.sellerId);
  const refundId = (await team.support.ok('mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "walk") { id } }', { p: paymentId })).requestRefund.id;
  const withdrawalId = (await team.support.ok('mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }', { s: seller.shopId })).requestWithdrawal.id;
  const deliveryId = (await settledDelivery(service, paymentId)).id;
  // An inquiry the acquirer opened against the payment (no money moves).
  await applyDisputeNotice(service.em(), { step: 'open', paymentId, reference: 'DISPUTEWALK00001', amount: 1000, currency: 'USD', reason: 'walk' });
  const disputeId = (await service.em().findOneOrFail(Dispute, { payment: paymentId })).id;
  rows = { shopId: seller.shopId, sellerId: seller.sellerId, paymentId, pendingPaymentId, refundId, withdrawalId, deliveryId, disputeId };

  const adminSession = (await adminSignedIn(service, AdminRole.OWNER)).session;
  const withSession = (session: DashboardSession | AdminSession) => (req: request.Test) => req.set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken);
  const withBearer = (token: string) => (req: request.Test) => req.set('Authorization', bearer(token));
  callers = {
    'API key seller': withBearer(seller.apiKey),
    'dashboard session': withSession(seller.session),
    'support admin': withBearer(team.support.token),
    'finance admin': withBearer(team.finance.token),
    'owner admin': withBearer(team.owner.token),
    'admin session': withSession(adminSession),
    anonymous: (req) => req,
  };
});
afterAll(async () => {
  await receiver?.close();
});

/** Plausible values for arguments, by `Type.field(argument)` first, then by argument name; ids are this file's rows. */
function plausible(parent: string, field: string, arg: GraphQLArgument): string | undefined {
  const byField: Record<string, string> = {
    'Query.payment(id)': rows.paymentId,
    'Query.checkoutPayment(id)': rows.pendingPaymentId,
    'Query.refund(id)': rows.refundId,
    'Query.shop(id)': rows.shopId,
    'Query.seller(id)': rows.sellerId,
    'Query.webhookDelivery(id)': rows.deliveryId,
    'Balance.statement(month)': new Date().toISOString().slice(0, 7),
    'Query.withdrawal(id)': rows.withdrawalId,
    'Query.dispute(id)': rows.disputeId,
  };
  const byName: Record<string, string> = { shopId: rows.shopId, sellerId: rows.sellerId, paymentId: rows.paymentId, limit: '3' };
  const id = byField[`${parent}.${field}(${arg.name})`] ?? byName[arg.name];
  if (id !== undefined) return id === '3' ? id : JSON.stringify(id);
  if (!isNonNullType(arg.type)) return undefined;
  const type = getNamedType(arg.type);
  if (isEnumType(type)) return type.getValues()[0].name;
  if (type.name === 'Int' || type.name === 'SafeInt') return '3';
  if (type.name === 'Boolean') return 'false';
  throw new Error(`No plausible value for the required argument ${parent}.${field}(${arg.name}: ${arg.type}): add one to plausible()`);
}

function argumentsOf(parent: string, field: GraphQLField<unknown, unknown>): string {
  const given = field.args.flatMap((arg) => {
    const value = plausible(parent, field.name, arg);
    return value === undefined ? [] : [`${arg.name}: ${value}`];
  });
  return given.length ? `(${given.join(', ')})` : '';
}

/** The object type whose fields a field of this type has, or null for leaves (and unions: asked for `__typename`). */
function fieldsOf(type: GraphQLOutputType): [string, GraphQLField<unknown, unknown>[]] | null {
  const named = getNamedType(type);
  if (isLeafType(named) || isUnionType(named) || !(isObjectType(named) || isInterfaceType(named))) return null;
  return [named.name, Object.values(named.getFields())];
}

const leafOr = (type: GraphQLOutputType, inner: string) => (fieldsOf(type) ? ` { ${inner} }` : isLeafType(getNamedType(type)) ? '' : ' { __typename }');

/**
 * One document per path: a root query field, one of its fields, and (for an object) one of that object's
 * fields, whose own object fields are asked for their `__typename` (their resolvers still run). One path a
 * document, because graphql-js stops waiting for a field's siblings once a non-null sibling fails (a refused
 * `fee` would hide a fault of `shop` sent in the same selection).
 */
function walkDocuments(): [string, string][] {
  const documents: [string, string][] = [];
  for (const root of Object.values(schema.getQueryType()!.getFields())) {
    const head = `${root.name}${argumentsOf('Query', root)}`;
    const level1 = fieldsOf(root.type);
    if (!level1) {
      documents.push([root.name, `query Walk { ${head}${leafOr(root.type, '')} }`]);
      continue;
    }
    for (const first of level1[1]) {
      const firstHead = `${first.name}${argumentsOf(level1[0], first)}`;
      const level2 = fieldsOf(first.type);
      if (!level2) {
        documents.push([`${root.name}.${first.name}`, `query Walk { ${head} { ${firstHead}${leafOr(first.type, '')} } }`]);
        continue;
      }
      for (const second of level2[1]) {
        const secondHead = `${second.name}${argumentsOf(level2[0], second)}${leafOr(second.type, '__typename')}`;
        documents.push([`${root.name}.${first.name}.${second.name}`, `query Walk { ${head} { ${firstHead} { ${secondHead} } } }`]);
      }
    }
  }
  return documents;
}

interface Answer {
  status: number;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
}

async function send(caller: Caller, body: object): Promise<Answer> {
  const res = await callers[caller](request(service.url).post('/graphql').set('Content-Type', 'application/json')).send(body);
  return { status: res.status, errors: res.body.errors };
}

function faultsIn(caller: Caller, name: string, answer: Answer): string[] {
  const faults = (answer.errors ?? []).filter((e) => FAULT_CODES.has(String(e.extensions?.code)));
  const status = answer.status >= 500 ? [`${caller} ${name}: HTTP ${answer.status}`] : [];
  return [...status, ...faults.map((e) => `${caller} ${name}: ${e.extensions?.code} at ${(e.path ?? []).join('.')} (${e.message})`)];
}

function errorLogsSince(mark: number): string[] {
  return service.logs
    .slice(mark)
    .filter((line) => Number(line.level) >= 50)
    .map((line) => `${line.msg}: ${JSON.stringify((line.err as { message?: string } | undefined)?.message ?? line)}`);
}

test('the walk reaches every root query field and every field two levels down, with rows for the fields that need an id', () => {
  const documents = new Map(walkDocuments());
  const roots = new Set([...documents.keys()].map((path) => path.split('.')[0]));
  expect([...roots].sort()).toEqual(Object.keys(schema.getQueryType()!.getFields()).sort());
  expect(documents.size).toBeGreaterThan(300);
  expect(documents.get('payment.shop.id')).toBe(`query Walk { payment(id: "${rows.paymentId}") { shop { id } } }`);
  expect(documents.get('shop.balance.entries')).toBe(`query Walk { shop(id: "${rows.shopId}") { balance { entries(limit: 3) { __typename } } } }`);
});

describe.each(CALLERS)('as %s', (caller) => {
  test('no root query field, nor any field two levels down, answers INTERNAL or logs an error', async () => {
    const mark = service.logs.length;
    const faults: string[] = [];
    let answered = 0;
    const documents = walkDocuments();
    // A few documents at a time: several hundred per caller.
    const worker = async () => {
      for (let next = documents.shift(); next; next = documents.shift()) {
        const [name, document] = next;
        const answer = await send(caller, { query: document, operationName: 'Walk' });
        faults.push(...faultsIn(caller, name, answer));
        if (!answer.errors?.length) answered++;
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    expect(faults.sort()).toEqual([]);
    expect(errorLogsSince(mark)).toEqual([]);
    // Every authenticated caller read fields without any error (the anonymous one is refused before execution).
    if (caller !== 'anonymous') expect(answered).toBeGreaterThan(20);
  }, 120_000);

  test('the public checkout operation (as the checkout page sends it) answers no INTERNAL for a pending or a completed payment', async () => {
    const mark = service.logs.length;
    const faults: string[] = [];
    for (const id of [rows.pendingPaymentId, rows.paymentId]) {
      const answer = await send(caller, { query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id } });
      faults.push(...faultsIn(caller, 'CheckoutPayment', answer));
      expect(answer.errors).toBeUndefined();
    }
    expect(faults).toEqual([]);
    expect(errorLogsSince(mark)).toEqual([]);
  });
});

test("the seller's API key reads its payment's shop (the field that answered INTERNAL)", async () => {
  const answer = await callers['API key seller'](request(service.url).post('/graphql').set('Content-Type', 'application/json')).send({
    query: 'query ($id: ID!) { payment(id: $id) { id shop { id } } }',
    variables: { id: rows.paymentId },
  });
  expect(answer.body).toEqual({ data: { payment: { id: rows.paymentId, shop: { id: rows.shopId } } } });
});
