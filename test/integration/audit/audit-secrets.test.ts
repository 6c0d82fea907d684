import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { getNamedType, isEnumType, isInputObjectType, isLeafType, isListType, isNonNullType, type GraphQLField, type GraphQLInputType } from 'graphql';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { isSecretName, REDACTED } from '../../../src/modules/audit/secret-arguments';
import { buildAppSchema } from '../../../src/apps/schema';
import { adminTeam } from '../../support/admin-client';
import { adminSignedIn, type AdminSession } from '../../support/admin-session';
import { useTestService } from '../../support/test-service';

/**
 * Refused admin calls are audited with their arguments (docs/admin.md, "Refusals"); the audit log is
 * append-only, so a secret written there stays. Every mutation of the built schema with an argument that
 * may carry a secret (password, code, token, secret, key, account number, card number …) is sent by each
 * admin role, with a token and with a console session, every secret a value unique to that call; then no
 * row of the audit log holds any of those values, while the refusals are there with `[redacted]`.
 */
const service = useTestService({ AUTH_FAILURES_PER_MINUTE: '1000000', RATE_LIMIT_PER_MINUTE: '1000000' });
let senders: Record<string, (req: request.Test) => request.Test>;
const MAY_CARRY_A_SECRET = /password|code|token|secret|account|iban|key/i;

beforeAll(async () => {
  const team = await adminTeam(service);
  const session: AdminSession = (await adminSignedIn(service, AdminRole.FINANCE)).session;
  const bearer = (token: string) => (req: request.Test) => req.set('Authorization', `Bearer ${token}`);
  senders = {
    'support token': bearer(team.support.token),
    'finance token': bearer(team.finance.token),
    'owner token': bearer(team.owner.token),
    'finance session': (req) => req.set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken),
  };
});

/** Every name of an argument or of a field of its input type, at any depth. */
function names(type: GraphQLInputType, seen = new Set<string>()): string[] {
  const named = getNamedType(type);
  if (!isInputObjectType(named) || seen.has(named.name)) return [];
  seen.add(named.name);
  return Object.values(named.getFields()).flatMap((f) => [f.name, ...names(f.type, seen)]);
}

function mayCarrySecrets(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((arg) => [arg.name, ...names(arg.type)].some((name) => MAY_CARRY_A_SECRET.test(name) || isSecretName(name)));
}

/** Values that pass GraphQL's validation; every secret a fresh value recorded in `secrets`. */
function valueFor(type: GraphQLInputType, name: string, secrets: string[]): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, name, secrets);
  if (isListType(type)) return [valueFor(type.ofType, name, secrets)];
  if (isInputObjectType(type)) return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, valueFor(f.type, f.name, secrets)]));
  if (isEnumType(type)) return type.getValues()[0].name;
  if (!isLeafType(type)) throw new Error(`unexpected input type ${String(type)}`);
  if (isSecretName(name) && ['String', 'ID'].includes(type.name)) {
    const secret = `s3cret-${name}-${randomBytes(6).toString('hex')}`;
    secrets.push(secret);
    return secret;
  }
  switch (type.name) {
    case 'Int':
    case 'SafeInt':
    case 'Float':
      return 1000;
    case 'Boolean':
      return false;
    case 'DateTimeISO':
      return new Date().toISOString();
    case 'JSON':
    case 'JSONObject':
      return { note: 'plain' };
    case 'ID':
      return 'x_missing';
    default:
      return 'plain text';
  }
}

function documentFor(field: GraphQLField<unknown, unknown>): string {
  const variables = field.args.map((arg) => `$${arg.name}: ${arg.type}`).join(', ');
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `mutation Send(${variables}) { ${field.name}(${args})${selection} }`;
}

test('no secret sent to any mutation, refused or not, reaches the audit log; the refusals are there, redacted', async () => {
  const schema = await buildAppSchema();
  const mutations = Object.values(schema.getMutationType()!.getFields()).filter(mayCarrySecrets);
  expect(mutations.map((m) => m.name)).toEqual(expect.arrayContaining(['changePassword', 'disableTwoFactor', 'setPayoutAccount', 'createPayment', 'submitCard', 'adminSignIn']));

  const sent: string[] = [];
  const before = await service.em().getConnection().execute<{ id: string }[]>(`select coalesce(max(id), 0)::text as id from audit_log`);
  for (const mutation of mutations) {
    for (const [who, as] of Object.entries(senders)) {
      const secrets: string[] = [];
      const variables = Object.fromEntries(mutation.args.map((arg) => [arg.name, valueFor(arg.type, arg.name, secrets)]));
      const res = await as(request(service.url).post('/graphql').set('Content-Type', 'application/json')).send({ query: documentFor(mutation), variables });
      // The document is valid: it ran (or was refused) rather than failing GraphQL's validation.
      expect([mutation.name, who, res.body.errors?.[0]?.extensions?.code]).not.toEqual([mutation.name, who, 'GRAPHQL_VALIDATION_FAILED']);
      sent.push(...secrets);
    }
  }
  expect(sent.length).toBeGreaterThan(40);

  const rows = await service.em().getConnection().execute<{ action: string; target_id: string; details: Record<string, unknown>; row: string }[]>(
    `select action, target_id, details, row_to_json(a)::text as row from audit_log a where id > ?`,
    [before[0].id],
  );
  const leaks = sent.filter((secret) => rows.some((r) => r.row.includes(secret)));
  expect(leaks).toEqual([]);

  // Not vacuous: the calls of the report were refused and audited, with their secrets redacted and the rest kept.
  const refusal = (name: string) => rows.find((r) => r.action === 'access.refused' && r.target_id === name)?.details.arguments as Record<string, unknown> | undefined;
  expect(refusal('changePassword')).toMatchObject({ currentPassword: REDACTED, newPassword: REDACTED });
  expect(refusal('disableTwoFactor')).toMatchObject({ code: REDACTED, password: REDACTED });
  expect(refusal('setPayoutAccount')).toMatchObject({ accountNumber: REDACTED, holder: 'plain text' });
  expect(refusal('createPayment')).toMatchObject({ idempotencyKey: REDACTED, input: { amount: 1000, currency: 'plain text' } });
  expect(refusal('setSellerAccountStatus')).toMatchObject({ accountStatus: expect.any(String), reason: 'plain text' });
  // Every refused mutation's secret arguments, whatever they are today, are written redacted.
  const refused = mutations.filter((m) => refusal(m.name));
  expect(refused.length).toBeGreaterThanOrEqual(5);
  for (const mutation of refused) {
    const kept = refusal(mutation.name)!;
    for (const arg of mutation.args) if (isSecretName(arg.name)) expect([mutation.name, arg.name, kept[arg.name]]).toEqual([mutation.name, arg.name, REDACTED]);
  }
});
