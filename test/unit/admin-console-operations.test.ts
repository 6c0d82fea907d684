import fs from 'node:fs';
import path from 'node:path';
import { parse, validate, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { loadConfig } from '../../src/shared/config';
import { buildAppSchema } from '../../src/apps/schema';
import { measureOperation } from '../../src/api/graphql/query-guards';

const source = fs.readFileSync(path.join(__dirname, '../../schema/operations/admin-console.graphql'), 'utf8');
const presets = fs.readFileSync(path.join(__dirname, '../../admin-ui/src/presets.tsx'), 'utf8');

describe("the admin console's ready-made operations", () => {
  test('are valid against the schema', async () => {
    expect(validate(await buildAppSchema(), parse(source)).map((e) => e.message)).toEqual([]);
  });

  test('stay within the default depth and cost limits', async () => {
    const schema = await buildAppSchema();
    const limits = loadConfig({}).graphqlLimits;
    const document = parse(source);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const operation of document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')) {
      const measure = measureOperation(schema, operation, fragments, { limit: 100, entries: 100 });
      expect([operation.name?.value, measure.depth <= limits.maxDepth, measure.cost <= limits.maxCost]).toEqual([operation.name?.value, true, true]);
    }
  });

  test('each has its button in the console, and each button its operation', () => {
    const names = parse(source)
      .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
      .map((d) => d.name!.value)
      .sort();
    const buttons = [...presets.matchAll(/operationName: '(\w+)'/g)].map((m) => m[1]).sort();
    expect(buttons).toEqual(names);
  });

  test("each button is shown to exactly the roles the server lets run its operation (docs/admin.md)", async () => {
    await buildAppSchema();
    const storage = getMetadataStorage();
    const rootFields = [...storage.queries, ...storage.mutations];
    const serverRoles = (field: string): string[] => {
      const resolver = rootFields.find((r) => r.schemaName === field)!;
      const declared = storage.authorizedFields.find((a) => a.target === resolver.target && a.fieldName === resolver.methodName)?.roles ?? [];
      const roles = declared.includes('ADMIN') ? ['SUPPORT', 'FINANCE', 'OWNER'] : declared.filter((r) => ['SUPPORT', 'FINANCE', 'OWNER'].includes(r));
      return [...roles].sort();
    };
    const constants = new Map([...presets.matchAll(/const (\w+): AdminRole\[\] = \[([^\]]*)\]/g)].map((m) => [m[1], m[2].match(/\w+/g)!.sort()]));
    const operations = new Map(
      parse(source)
        .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
        .map((d) => [d.name!.value, (d.selectionSet.selections[0] as FieldNode).name.value]),
    );
    // Each preset's text runs from its operationName to the next one's.
    const shown = presets
      .split(/(?=operationName: ')/)
      .slice(1)
      .map((text) => [/^operationName: '(\w+)'/.exec(text)![1], constants.get(/roles: (\w+)/.exec(text)?.[1] ?? '') ?? ['FINANCE', 'OWNER', 'SUPPORT']]);
    expect(shown).toHaveLength(operations.size);
    const expected = shown.map(([name]) => [name, serverRoles(operations.get(name as string)!)]);
    expect(shown).toEqual(expected);
  });
});
