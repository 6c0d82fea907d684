import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { buildAppSchema } from '../../../src/apps/schema';
import { adminClient, type AdminClient } from '../../support/admin-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * One input guard for every text argument (src/api/graphql/text-inputs.ts). The test walks the built schema:
 * every String and ID argument of every field reachable from the roots, and every String and ID field of every input
 * object an argument takes (nested ones too), is sent U+0000 (in variables) and ESC (written in the document); each
 * answer is TEXT_INPUT_INVALID naming it, never INTERNAL, and the service logs no error. A tab and a line break pass
 * the guard in a reason or note only.
 */
jest.setTimeout(120_000);
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '1000000', AUTH_FAILURES_PER_MINUTE: '1000000', GRAPHQL_COST_PER_MINUTE: '1000000000' });
let schema: GraphQLSchema;
let owner: AdminClient;

beforeAll(async () => {
  schema = await buildAppSchema();
  owner = await adminClient(service);
});

/** A value of the type, as variables carry it: its text need not make sense, it only has to reach the guard. */
function filler(type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) return [filler(inner.ofType)];
  if (isInputObjectType(inner)) {
    return Object.fromEntries(Object.values(inner.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, filler(f.type)]));
  }
  if (isEnumType(inner)) return inner.getValues()[0].name;
  return { Int: 1, SafeInt: 1, BigInt: '1', Float: 1, Boolean: true, DateTimeISO: '2026-01-01T00:00:00.000Z', JSON: {}, JSONObject: {} }[inner.name] ?? 'x';
}

/** The same value written in the document (GraphQL's string escapes are JSON's). */
function literal(type: GraphQLInputType, value: unknown): string {
  const inner = getNullableType(type);
  if (isListType(inner)) return `[${(value as unknown[]).map((v) => literal(inner.ofType, v)).join(', ')}]`;
  if (isInputObjectType(inner)) {
    const fields = inner.getFields();
    return `{${Object.entries(value as object).map(([k, v]) => `${k}: ${literal(fields[k].type, v)}`).join(', ')}}`;
  }
  if (isEnumType(inner)) return String(value);
  if (inner.name === 'JSON' || inner.name === 'JSONObject') return '{}';
  return JSON.stringify(value);
}

interface Target {
  /** Where the text goes, as the error names it: `Type.field(argument)` or `Type.field(argument).input.field`. */
  label: string;
  /** The argument or input field's own name (what the error message names). */
  name: string;
  /** The document and its variables, given the text for the target. */
  build(text: string, inline: boolean): { query: string; variables: Record<string, unknown> };
}

/** The shortest selection from a root to each object type: `a(args) { b(args) { ... on T {` prefixes. */
function pathsFrom(root: GraphQLObjectType): Map<string, { steps: { field: GraphQLField<unknown, unknown>; on: string | null }[] }> {
  const paths = new Map<string, { steps: { field: GraphQLField<unknown, unknown>; on: string | null }[] }>([[root.name, { steps: [] }]]);
  const queue: GraphQLObjectType[] = [root];
  while (queue.length > 0) {
    const type = queue.shift()!;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      const objects = isObjectType(named) ? [[named, null] as const] : isAbstractType(named) ? schema.getPossibleTypes(named).map((t) => [t, t.name] as const) : [];
      for (const [next, on] of objects) {
        if (paths.has(next.name)) continue;
        paths.set(next.name, { steps: [...paths.get(type.name)!.steps, { field, on }] });
        queue.push(next);
      }
    }
  }
  return paths;
}

/** Every String and ID argument, and String and ID input field, of the schema, each with a document that sends it. */
function targets(): Target[] {
  const found: Target[] = [];
  for (const [operation, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
    const paths = pathsFrom(root);
    for (const [typeName, { steps }] of paths) {
      const type = schema.getType(typeName) as GraphQLObjectType;
      // Mutations are reached at the root only: a nested field of a mutation's answer is the query's to walk.
      if (operation === 'mutation' && steps.length > 0) continue;
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) {
          // Each text position inside the argument: [] for the argument itself, else a path of input fields.
          const positions: { path: string[]; type: GraphQLInputType }[] = [];
          const collect = (t: GraphQLInputType, path: string[], seen: Set<string>) => {
            const named = getNamedType(t);
            if (named.name === 'String' || named.name === 'ID') positions.push({ path, type: t });
            if (isInputObjectType(named) && !seen.has(named.name)) {
              for (const f of Object.values(named.getFields())) collect(f.type, [...path, f.name], new Set([...seen, named.name]));
            }
          };
          collect(arg.type, [], new Set());
          for (const position of positions) {
            const name = position.path.at(-1) ?? arg.name;
            found.push({
              label: `${typeName}.${field.name}(${arg.name})${position.path.map((p) => `.${p}`).join('')}`,
              name,
              build(text, inline) {
                const variables: Record<string, unknown> = {};
                const definitions: string[] = [];
                let n = 0;
                const argumentsOf = (f: GraphQLField<unknown, unknown>, target: boolean) => {
                  const given = f.args.filter((a) => isNonNullType(a.type) || (target && a === arg)).map((a) => {
                    let value = filler(a.type);
                    if (target && a === arg) value = withText(a.type, value, position.path, text);
                    if (inline && target && a === arg) return `${a.name}: ${literal(a.type, value)}`;
                    const variable = `v${n++}`;
                    definitions.push(`$${variable}: ${a.type.toString()}`);
                    variables[variable] = value;
                    return `${a.name}: $${variable}`;
                  });
                  return given.length ? `(${given.join(', ')})` : '';
                };
                const leaf = (f: GraphQLField<unknown, unknown>) => (getNamedType(f.type) && (isObjectType(getNamedType(f.type)) || isAbstractType(getNamedType(f.type))) ? ' { __typename }' : '');
                let selection = `${field.name}${argumentsOf(field, true)}${leaf(field)}`;
                for (const step of [...steps].reverse()) selection = `${step.field.name}${argumentsOf(step.field, false)} { ${step.on ? `... on ${step.on} { ${selection} }` : selection} }`;
                return { query: `${operation}${definitions.length ? `(${definitions.join(', ')})` : ''} { ${selection} }`, variables };
              },
            });
          }
        }
      }
    }
  }
  return found;
}

/** The argument's filler value with `text` at `path` (a list's first item on the way). */
function withText(type: GraphQLInputType, value: unknown, path: string[], text: string): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) return [withText(inner.ofType, Array.isArray(value) ? value[0] : filler(inner.ofType), path, text)];
  if (path.length === 0) return text;
  if (!isInputObjectType(inner)) throw new Error(`no input field ${path.join('.')} in ${inner.name}`);
  const field = inner.getFields()[path[0]];
  const object = { ...(value as Record<string, unknown>) };
  object[path[0]] = withText(field.type, object[path[0]] ?? filler(field.type), path.slice(1), text);
  return object;
}

const FREE_TEXT = new Set(['reason', 'note']);
const codeOf = (answer: { errors?: { extensions?: { code?: string } }[] }) => answer.errors?.[0]?.extensions?.code;

test('every String and ID argument and input field of the schema refuses U+0000 and other control characters with TEXT_INPUT_INVALID, and logs no error', async () => {
  const all = targets();
  // The walk reaches the whole schema: sign-in, sign-up, refunds, payouts, searches, admin reasons and filters.
  expect(all.length).toBeGreaterThan(120);
  for (const label of ['Mutation.signIn(email)', 'Mutation.signUp(input).email', 'Mutation.requestRefund(reason)', 'Mutation.setPayoutAccount(holder)', 'Query.searchPayments(filter).text', 'Query.auditLog(actor)', 'Mutation.suspendSeller(reason)', 'Balance.statement(month)']) {
    expect(all.map((t) => t.label)).toContain(label);
  }
  const errorsLoggedBefore = service.logs.filter((line) => Number(line.level) >= 50).length;
  const answers: Record<string, string[]> = {};
  for (const target of all) {
    const nul = target.build('a\u0000b', false);
    const esc = target.build('a\u001bb', true);
    const tab = target.build('line one\n\tline two', false);
    const got = await Promise.all([owner.run(nul.query, nul.variables), owner.run(esc.query, esc.variables), owner.run(tab.query, tab.variables)]);
    answers[target.label] = got.map((answer) => `${codeOf(answer)}${answer.errors?.[0]?.message.startsWith(`${target.name} cannot contain`) ? '' : ` (${answer.errors?.[0]?.message})`}`);
  }
  const expected = Object.fromEntries(all.map((t) => [t.label, ['TEXT_INPUT_INVALID', 'TEXT_INPUT_INVALID', FREE_TEXT.has(t.name) ? 'accepted' : 'TEXT_INPUT_INVALID']]));
  // A reason or note with a tab and a line break is past the guard: whatever it answers, it is not the guard's refusal.
  for (const got of Object.values(answers)) if (got[2].startsWith('TEXT_INPUT_INVALID') === false) got[2] = 'accepted';
  expect(answers).toEqual(expected);
  expect(service.logs.filter((line) => Number(line.level) >= 50).slice(errorsLoggedBefore)).toEqual([]);
  // Three requests for each of some 300 arguments: minutes on a busy 2-core machine.
}, 400_000);

test('the answer says which argument, in plain words, with HTTP 400; a sign-in from nobody and a dashboard session are refused the same way', async () => {
  const signIn = await dashboard(service.url, 'SignIn', { email: 'ann\u0000@example.com', password: 'whatever-it-is-42' });
  expect(signIn.status).toBe(400);
  expect(signIn.body.errors).toEqual([
    { message: 'email cannot contain control characters or lone surrogates (only a reason or note may hold tabs and line breaks)', extensions: { code: 'TEXT_INPUT_INVALID', status: 400 } },
  ]);
  const seller = await signUpSeller(service.url);
  const payout = await dashboard(service.url, 'SetPayoutAccount', { holder: 'Ann\u0000Lee', accountNumber: 'DE89370400440532013000', currentPassword: seller.password }, seller.session);
  expect(payout.body.errors?.[0]?.extensions?.code).toBe('TEXT_INPUT_INVALID');
  // A lone surrogate is no text either (PostgreSQL would keep U+FFFD instead).
  const shop = await dashboard(service.url, 'CreateMyShop', { shopName: 'Shop \ud800' }, seller.session);
  expect(shop.body.errors?.[0]?.extensions?.code).toBe('TEXT_INPUT_INVALID');
  // Ordinary text of every script passes.
  const named = await dashboard(service.url, 'SetPayoutAccount', { holder: 'Zoë Ångström-李', accountNumber: 'DE89370400440532013000', currentPassword: seller.password }, seller.session);
  expect(named.body.errors).toBeUndefined();
});
