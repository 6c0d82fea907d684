import fs from 'node:fs';
import path from 'node:path';
import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from '../../src/apps/schema';
import { loadOperations } from '../../src/api/graphql/operations';
import type { PaymentWithCompletionFields } from '../../src/api/rest/fragments';
import { openApiDocument } from '../../src/api/rest/openapi/document';
import { errorCase } from '../../src/api/rest/openapi/error-responses';
import { EXAMPLE_COMPLETED } from '../../src/api/rest/openapi/examples';
import { ref } from '../../src/api/rest/openapi/types';
import { toRestPayment } from '../../src/api/rest/rest-payment';
import { prepareRoutes } from '../../src/api/rest/rest-router';
import { defineRoute, REST_ROUTES, type RestRoute } from '../../src/api/rest/routes';
import { PROJECT_ROOT } from '../../src/shared/project-root';

/** The route table is checked against the operations and the document once, at start: a mistake fails the start. */

let schema: GraphQLSchema;
const ignore = () => undefined;

beforeAll(async () => {
  schema = await buildAppSchema();
});

test('every route finds its operation in rest.graphql', () => {
  const operations = loadOperations(schema, 'rest.graphql', ignore);
  expect(prepareRoutes(REST_ROUTES, operations).map(({ route }) => route.operation)).toEqual(['CurrentShop', 'CreatePayment', 'ListPayments', 'GetPayment', 'ShopEventStream']);
});

test('when the operations file lacks a route\'s operation, then preparing the routes (at start) throws, naming it', () => {
  // checkout.graphql is valid against the schema but holds none of the facade's operations.
  const operations = loadOperations(schema, 'checkout.graphql', ignore);
  expect(() => prepareRoutes(REST_ROUTES, operations)).toThrow('Unknown operation CurrentShop in checkout.graphql');
});

test('when a route\'s path parameter is not documented, then building the document throws', () => {
  const operations = loadOperations(schema, 'rest.graphql', ignore);
  const undocumented: RestRoute[] = REST_ROUTES.map((route) => (route.path.includes(':') ? { ...route, document: { ...route.document, parameters: [] } } : route));
  expect(() => openApiDocument('https://pay.example.com', undocumented, operations)).toThrow('get /payments/:id: parameter id is not documented');
});

test('the document has a path for every route, its answers shaped by the fragments of rest.graphql', () => {
  const document = openApiDocument('https://pay.example.com', REST_ROUTES, loadOperations(schema, 'rest.graphql', ignore));
  expect(Object.keys(document.paths)).toEqual(['/payments/test', '/payments', '/payments/{id}', '/events/stream', '/openapi.json']);
  expect(Object.keys(document.paths['/payments'])).toEqual(['post', 'get']);
  const payment = document.components.schemas.PaymentWithCompletion;
  expect(payment.required).toEqual(['id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at', 'completed_at']);
  expect(payment.properties?.status.enum).toEqual(['pending', 'completed', 'failed', 'refunded']);
  expect(payment.properties?.completed_at.type).toEqual(['string', 'null']);
});

test('a stream route is documented as Server-Sent Events, its message data a schema, its own 429 beside the rate limit\'s', () => {
  const document = openApiDocument('https://pay.example.com', REST_ROUTES, loadOperations(schema, 'rest.graphql', ignore));
  const stream = document.paths['/events/stream'].get!;
  expect(stream.parameters).toEqual([ref('parameters', 'Last-Event-ID'), ref('parameters', 'X-Request-Id')]);
  expect(Object.keys(stream.responses)).toEqual(['200', '400', '401', '403', '429', '500', '503']);
  const ok = stream.responses['200'] as { content: Record<string, unknown> };
  expect(Object.keys(ok.content)).toEqual(['text/event-stream']);
  expect(document.components.schemas.ShopEventMessage.required).toEqual(['test', 'body']);
  const tooMany = JSON.stringify(stream.responses['429']);
  expect(tooMany).toContain('EVENT_STREAMS_EXCEEDED');
  expect(tooMany).toContain('RATE_LIMITED');
  // The other routes' 429 stays the rate limit's alone.
  expect(JSON.stringify(document.paths['/payments'].get!.responses['429'])).not.toContain('EVENT_STREAMS_EXCEEDED');
});

// ---------------------------------------------------------------------------------------------------------
// One source: a route is one entry of routes.ts, and nothing else in the REST/OpenAPI layer names it.

const REST_DIRECTORY = path.join(PROJECT_ROOT, 'src/api/rest');

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

/** What only a route's own entry may say: its operation, its path, its operationId and its schemas' names. */
function perRouteNames(route: RestRoute): { name: string; pattern: RegExp }[] {
  const { operationId, success, body } = route.document;
  const word = (name: string) => ({ name, pattern: new RegExp(`\\b${name}\\b`) });
  const quoted = (text: string) => ({ name: text, pattern: new RegExp(`['"\`]${text.replace(/[/:]/g, '\\$&')}['"\`]`) });
  return [word(route.operation), word(operationId), word(success.schema), ...(body ? [word(body.name)] : []), quoted(route.path)];
}

test('no file of src/api/rest/ but routes.ts names a route: no second per-route list (errors, result types, paths)', () => {
  const others = sourceFiles(REST_DIRECTORY).filter((file) => file !== path.join(REST_DIRECTORY, 'routes.ts'));
  expect(others.length).toBeGreaterThan(8);
  const found = others.flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return REST_ROUTES.flatMap(perRouteNames).filter(({ pattern }) => pattern.test(text)).map(({ name }) => `${path.relative(PROJECT_ROOT, file)}: ${name}`);
  });
  expect(found).toEqual([]);
});

test('the per-route check finds a list keyed by operation, like the operation-results map it replaced', () => {
  const registry = 'export interface RestOperationResults {\n  CreatePayment: { createPayment: unknown };\n  GetPayment: { payment: unknown };\n}';
  const named = REST_ROUTES.flatMap(perRouteNames).filter(({ pattern }) => pattern.test(registry)).map(({ name }) => name);
  expect(named).toEqual(expect.arrayContaining(['CreatePayment', 'createPayment', 'GetPayment']));
});

/** A route a newcomer might add, written as one entry and nothing else (not part of the service). */
const cancelRoute = defineRoute<{ payment: PaymentWithCompletionFields }>({
  method: 'post',
  path: '/payments/:id/cancel',
  operation: 'GetPayment',
  variables: (req) => ({ id: req.params.id }),
  respond: ({ payment }) => ({ data: toRestPayment(payment) }),
  document: {
    operationId: 'cancelPayment',
    summary: 'Cancel a payment',
    description: 'A sketch for the test.',
    tag: 'Payments',
    parameters: ['id'],
    success: { description: 'The payment.', schema: 'PaymentCancelledResponse', data: ref('schemas', 'PaymentWithCompletion'), example: EXAMPLE_COMPLETED },
    errors: [{ description: 'No such payment for this shop.', cases: [errorCase('Not this shop\'s payment.', 'PAYMENT_NOT_FOUND')] }],
  },
});

test('a new route written as one entry is mounted and fully documented, and changes nothing else in the document', () => {
  const operations = loadOperations(schema, 'rest.graphql', ignore);
  expect(prepareRoutes([...REST_ROUTES, cancelRoute], operations).map(({ route }) => route.path)).toContain('/payments/:id/cancel');

  const before = openApiDocument('https://pay.example.com', REST_ROUTES, operations);
  const after = openApiDocument('https://pay.example.com', [...REST_ROUTES, cancelRoute], operations);
  const added = after.paths['/payments/{id}/cancel'].post!;
  expect(added.operationId).toBe('cancelPayment');
  expect(added.parameters).toEqual([ref('parameters', 'id'), ref('parameters', 'X-Request-Id')]);
  expect(Object.keys(added.responses)).toEqual(['200', '401', '403', '404', '429', '500', '503']);
  expect(JSON.stringify(added.responses['404'])).toContain('"error":"Payment not found"');
  expect(after.components.schemas.PaymentCancelledResponse.properties?.data).toEqual(ref('schemas', 'PaymentWithCompletion'));

  const { '/payments/{id}/cancel': _cancel, ...otherPaths } = after.paths;
  const { PaymentCancelledResponse: _schema, ...otherSchemas } = after.components.schemas;
  expect({ ...after, paths: otherPaths, components: { ...after.components, schemas: otherSchemas } }).toEqual(before);
});

test('a route\'s result handler is typed by the result its entry declares', () => {
  const typed = defineRoute<{ payment: PaymentWithCompletionFields }>({
    ...cancelRoute,
    // @ts-expect-error: the operation answers `payment`, not `payments`; tsc (npm run typecheck) refuses this entry.
    respond: ({ payments }) => ({ data: payments }),
  });
  expect(typed.path).toBe('/payments/:id/cancel');
});
