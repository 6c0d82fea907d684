import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { loadOperations } from '../../src/graphql/operations';
import { openApiDocument } from '../../src/rest/openapi/document';
import { prepareRoutes } from '../../src/rest/rest-router';
import { REST_ROUTES, type RestRoute } from '../../src/rest/routes';

/** The route table is checked against the operations and the document once, at start: a mistake fails the start. */

let schema: GraphQLSchema;
const ignore = () => undefined;

beforeAll(async () => {
  schema = await buildAppSchema();
});

test('every route finds its operation in rest.graphql', () => {
  const operations = loadOperations(schema, 'rest.graphql', ignore);
  expect(prepareRoutes(REST_ROUTES, operations).map(({ route }) => route.operation)).toEqual(['CurrentShop', 'CreatePayment', 'ListPayments', 'GetPayment']);
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
  expect(Object.keys(document.paths)).toEqual(['/payments/test', '/payments', '/payments/{id}', '/openapi.json']);
  expect(Object.keys(document.paths['/payments'])).toEqual(['post', 'get']);
  const payment = document.components.schemas.PaymentWithCompletion;
  expect(payment.required).toEqual(['id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at', 'completed_at']);
  expect(payment.properties?.status.enum).toEqual(['pending', 'completed', 'failed', 'refunded']);
  expect(payment.properties?.completed_at.type).toEqual(['string', 'null']);
});
