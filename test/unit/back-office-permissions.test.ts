import fs from 'node:fs';
import path from 'node:path';
import { parse, print, type OperationDefinitionNode } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema } from '../../src/apps/schema';
import { operationSources } from '../../admin-ui/src/operation-sources';
import { PERMISSIONS, type Permission } from '../../admin-ui/src/permissions';

/**
 * The back office shows a button only to the roles the server lets use it (docs/admin.md, "Roles"): each
 * permission of admin-ui/src/permissions.ts is held to the `@Authorized` roles of the fields it runs.
 * And the back office sends the shared document's operations exactly (operation-sources.ts cuts them out).
 */
const FIELDS: Record<Permission, string[]> = {
  recordRefund: ['requestRefund'],
  decideRefund: ['approveRefund', 'rejectRefund'],
  decideWithdrawal: ['approveWithdrawal', 'rejectWithdrawal'],
  markWithdrawalPaid: ['markWithdrawalPaid'],
  readAccountNumber: ['PayoutAccount.accountNumber'],
  manageShops: ['deactivateShop', 'reactivateShop', 'deleteShop'],
  manageSellers: ['suspendSeller', 'reactivateSeller', 'setSellerAccountStatus'],
  resetSellerTwoFactor: ['resetSellerTwoFactor'],
  resendMail: ['resendMail'],
  settleAcquirerOutcomes: ['retryAcquirerNotification', 'dismissAcquirerNotification', 'settleWithAcquirer', 'proposeSettlement', 'confirmSettlement', 'rejectSettlement'],
  simulateIssuer: ['simulateChargebackReversal'],
};

const ADMIN_ROLES = ['SUPPORT', 'FINANCE', 'OWNER'];

test('each permission is given to exactly the admin roles the server lets run its fields', async () => {
  await buildAppSchema();
  const storage = getMetadataStorage();
  const rolesOf = (field: string): string[] => {
    const [typeName, fieldName] = field.includes('.') ? field.split('.') : [null, field];
    const resolver = typeName
      ? storage.fieldResolvers.find((r) => r.schemaName === fieldName && storage.resolverClasses.find((c) => c.target === r.target)?.getObjectType?.()?.name === typeName)
      : [...storage.queries, ...storage.mutations].find((r) => r.schemaName === fieldName);
    if (!resolver) throw new Error(`no field ${field}`);
    const declared = storage.authorizedFields.find((a) => a.target === resolver.target && a.fieldName === resolver.methodName)?.roles ?? [];
    return (declared.includes('ADMIN') ? ADMIN_ROLES : declared.filter((r) => ADMIN_ROLES.includes(r))).sort();
  };
  for (const [permission, fields] of Object.entries(FIELDS)) {
    for (const field of fields) expect([permission, field, rolesOf(field)]).toEqual([permission, field, [...PERMISSIONS[permission as Permission]].sort()]);
  }
  expect(Object.keys(FIELDS).sort()).toEqual(Object.keys(PERMISSIONS).sort());
});

test('the operations the back office sends are the shared document\'s, cut exactly as graphql-js parses them', () => {
  const document = fs.readFileSync(path.join(__dirname, '../../schema/operations/admin-console.graphql'), 'utf8');
  const parsed = parse(document).definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const cut = operationSources(document);
  expect([...cut.keys()]).toEqual(parsed.map((d) => d.name!.value));
  for (const definition of parsed) expect(print(parse(cut.get(definition.name!.value)!))).toBe(print({ kind: 'Document', definitions: [definition] } as never));
});

test('every screen of the back office runs operations that exist, by name (never a document of its own)', () => {
  const document = fs.readFileSync(path.join(__dirname, '../../schema/operations/admin-console.graphql'), 'utf8');
  const names = new Set(operationSources(document).keys());
  const browser = path.join(__dirname, '../../admin-ui/src');
  const files = [...fs.readdirSync(browser), ...fs.readdirSync(path.join(browser, 'screens')).map((f) => `screens/${f}`)].filter((f) => f.endsWith('.tsx') || f.endsWith('.ts'));
  const used = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(browser, file), 'utf8');
    for (const match of text.matchAll(/(?:useOperation<[^>]*>|useOperation|runOperation(?:<[^>]*>)?)\(\s*(?:me\.auth|admin\.auth|auth)?,?\s*'(\w+)'/g)) used.add(match[1]);
    // No GraphQL document is written in the browser code: no `query X {` or `mutation X {` outside the shared file.
    expect([file, /[`'"]\s*(query|mutation)\s+\w+\s*[({]/.test(text)]).toEqual([file, false]);
  }
  expect(used.size).toBeGreaterThan(15);
  expect([...used].filter((name) => !names.has(name))).toEqual([]);
});
