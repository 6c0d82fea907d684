import { getNamedType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { ALSO_SECRET, isSecretName, NOT_SECRET, REDACTED, redactSecrets } from '../../src/modules/audit/secret-arguments';
import { buildAppSchema } from '../../src/apps/schema';

/**
 * The secret-bearing arguments a refused admin call must not carry into the audit log (src/modules/audit/secret-arguments.ts).
 * The rule is written out here again, so narrowing the module's rule fails this test.
 */
const MAY_CARRY_A_SECRET = /password|code|token|secret|account|iban|key/i;

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

/** Every argument of every field, and every field of every input type, as `coordinate` and name. */
function argumentsAndInputFields(): { coordinate: string; name: string }[] {
  const found: { coordinate: string; name: string }[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) for (const arg of field.args) found.push({ coordinate: `${type.name}.${field.name}(${arg.name}:)`, name: arg.name });
    }
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) found.push({ coordinate: `${type.name}.${field.name}`, name: field.name });
  }
  return found;
}

test('every argument and input field whose name may carry a secret is redacted, unless explicitly marked safe', () => {
  const all = argumentsAndInputFields();
  const suspect = all.filter(({ name }) => MAY_CARRY_A_SECRET.test(name));
  expect(suspect.length).toBeGreaterThan(15);
  const missed = suspect.filter(({ name }) => !isSecretName(name) && !NOT_SECRET.has(name)).map(({ coordinate }) => coordinate);
  expect(missed).toEqual([]);
  // The names marked safe are in the schema, and are names the rule would otherwise redact.
  for (const name of NOT_SECRET) {
    expect([name, MAY_CARRY_A_SECRET.test(name), all.some((a) => a.name === name)]).toEqual([name, true, true]);
    expect(isSecretName(name)).toBe(false);
  }
  // The secrets the rule misses are in the schema too (a stale entry would hide a gap).
  for (const name of ALSO_SECRET) expect([name, all.some((a) => a.name === name)]).toEqual([name, true]);
});

test('the secrets of the refusals that leaked are redacted by name', () => {
  const coordinates = argumentsAndInputFields().filter(({ name }) => isSecretName(name)).map(({ coordinate }) => coordinate);
  expect(coordinates).toEqual(
    expect.arrayContaining([
      'Mutation.changePassword(currentPassword:)',
      'Mutation.changePassword(newPassword:)',
      'Mutation.disableTwoFactor(code:)',
      'Mutation.disableTwoFactor(password:)',
      'Mutation.setPayoutAccount(accountNumber:)',
      'Mutation.adminSignIn(password:)',
      'Mutation.confirmAdminSetUp(code:)',
      'Mutation.resetPassword(token:)',
      'Mutation.createPayment(idempotencyKey:)',
      'SignUpInput.password',
      'CardInput.number',
      'CardInput.securityCode',
    ]),
  );
});

/** A value for every argument of a mutation, nested input objects filled in full: strings are `<coordinate>` so a leak names itself. */
function sample(type: GraphQLInputType, coordinate: string): unknown {
  const named = getNamedType(type);
  if (isInputObjectType(named)) return Object.fromEntries(Object.values(named.getFields()).map((f) => [f.name, sample(f.type, `${named.name}.${f.name}`)]));
  return `value of ${coordinate}`;
}

test.each(['changePassword', 'disableTwoFactor', 'setPayoutAccount', 'signUp', 'submitCard', 'createPayment', 'setSellerAccountStatus', 'requestWithdrawal'])(
  'redactSecrets on %s: every secret becomes [redacted] at any depth, everything else stays as sent',
  (mutation) => {
    const field = schema.getMutationType()!.getFields()[mutation];
    const args = Object.fromEntries(field.args.map((arg) => [arg.name, sample(arg.type, `${mutation}(${arg.name}:)`)]));
    const redacted = redactSecrets(args);
    const walk = (sent: unknown, kept: unknown, name: string): void => {
      if (isSecretName(name)) return expect([name, kept]).toEqual([name, REDACTED]);
      if (typeof sent === 'object' && sent !== null) for (const [key, value] of Object.entries(sent)) walk(value, (kept as Record<string, unknown>)[key], key);
      else expect(kept).toBe(sent);
    };
    for (const arg of field.args) walk(args[arg.name], redacted[arg.name], arg.name);
    expect(args).not.toBe(redacted);
  },
);

test('a list of recovery codes, a secret inside a list of inputs, and non-object values', () => {
  expect(redactSecrets({ recoveryCodes: ['a', 'b'], items: [{ apiKey: 'k', note: 'n' }], when: new Date(0), n: 3, none: null })).toEqual({
    recoveryCodes: REDACTED,
    items: [{ apiKey: REDACTED, note: 'n' }],
    when: new Date(0),
    n: 3,
    none: null,
  });
  expect(redactSecrets({ accountStatus: 'VERIFIED', iban: 'GB82WEST12345698765432', webhookSecret: 'whsec', token: 't' })).toEqual({
    accountStatus: 'VERIFIED',
    iban: REDACTED,
    webhookSecret: REDACTED,
    token: REDACTED,
  });
});
