import { adminClient, graphql } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

const service = useTestService({ GRAPHQL_MAX_DEPTH: '6', GRAPHQL_MAX_COST: '1000' });
let admin: Awaited<ReturnType<typeof adminClient>>;
let sellerKey: string;

beforeAll(async () => {
  admin = await adminClient(service);
  sellerKey = (await service.createShop()).apiKey;
});

const INTROSPECTION = '{ __schema { queryType { name } types { name fields { name args { name type { name ofType { name ofType { name } } } } } } } }';

describe('introspection is for admins only', () => {
  test('an admin may introspect (GraphiQL needs it), however deep the introspection query is', async () => {
    const answer = await admin.run(INTROSPECTION);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.__schema.queryType.name).toBe('Query');
  });

  test('a seller key is refused with a clear message', async () => {
    const answer = await graphql(service.url, `Bearer ${sellerKey}`, INTROSPECTION);
    expect(answer.status).toBe(403);
    expect(answer.errors).toEqual([{ message: 'Introspection is available to admins only', extensions: { code: 'INTROSPECTION_NOT_ALLOWED', status: 403 } }]);
    expect(answer.data).toBeUndefined();
    const byType = await graphql(service.url, `Bearer ${sellerKey}`, '{ __type(name: "Refund") { name } }');
    expect(byType.errors?.[0].extensions?.code).toBe('INTROSPECTION_NOT_ALLOWED');
  });

  test('a caller without credentials is refused before that (only the checkout operations may run)', async () => {
    const answer = await graphql(service.url, undefined, INTROSPECTION);
    expect([answer.status, answer.errors?.[0].extensions?.code]).toEqual([401, 'OPERATION_NOT_ALLOWED']);
  });

  test('__typename is not introspection', async () => {
    const answer = await graphql(service.url, `Bearer ${sellerKey}`, '{ __typename currentShop { id } }');
    expect(answer.errors).toBeUndefined();
  });
});

describe('depth and cost limits', () => {
  test('a query deeper than GRAPHQL_MAX_DEPTH is refused before it runs', async () => {
    const deep = '{ shops { items { seller { shop { seller { shop { seller { id } } } } } } } }';
    const answer = await admin.run(deep);
    expect(answer.status).toBe(400);
    expect(answer.errors).toEqual([{ message: 'Query is too deep: depth 8 exceeds the maximum of 6', extensions: { code: 'QUERY_TOO_DEEP', status: 400 } }]);
  });

  test('fragments count toward depth', async () => {
    const deep = 'query { shops { items { ...S } } } fragment S on Shop { seller { shop { seller { shop { seller { id } } } } } }';
    expect((await admin.run(deep)).errors?.[0].extensions?.code).toBe('QUERY_TOO_DEEP');
  });

  test('a query whose lists could hold too many objects is refused, page sizes from variables included', async () => {
    const costly = 'query ($limit: Int) { searchPayments(limit: $limit) { items { shop { seller { id } balance { available } } refunds { id } ledgerEntries { kind } } } }';
    const ok = await admin.run(costly, { limit: 10 });
    expect(ok.errors).toBeUndefined();
    const answer = await admin.run(costly, { limit: 100 });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0]).toMatchObject({
      message: 'Query is too expensive: cost 2401 exceeds the maximum of 1000 (lower page sizes or select fewer lists)',
      extensions: { code: 'QUERY_TOO_COSTLY' },
    });
  });

  test('aliases do not escape the cost: each aliased field is counted', async () => {
    const fields = Array.from({ length: 12 }, (_, i) => `a${i}: searchPayments(limit: 100) { items { id shop { id } } }`).join(' ');
    expect((await admin.run(`{ ${fields} }`)).errors?.[0].extensions?.code).toBe('QUERY_TOO_COSTLY');
  });

  test('the limits apply to sellers too', async () => {
    const lists = Array.from({ length: 4 }, (_, i) => `p${i}: payments(limit: 100) { items { shop { balance { available } } } }`).join(' ');
    const answer = await graphql(service.url, `Bearer ${sellerKey}`, `{ ${lists} }`);
    expect(answer.errors?.[0].extensions?.code).toBe('QUERY_TOO_COSTLY');
  });
});
