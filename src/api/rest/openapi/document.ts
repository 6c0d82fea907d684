import type { NamedOperations } from '../../graphql/operations';
import { IDEMPOTENCY_WINDOW_MS } from '../../../modules/payments';
import { isStreamRoute, type RestRoute, type RouteDocument } from '../routes';
import { COMMON_ERRORS, errorResponses, headersFor, OUTSIDE_ROUTES } from './error-responses';
import { HEADERS, PARAMETERS } from './headers-and-parameters';
import { fragmentSchemas } from './result-schemas';
import { ref, type JsonSchema, type OpenApiDocument, type Operation, type PathItem, type ResponseObject } from './types';
import { IDEMPOTENCY_KEY_MAX_LENGTH, PAGE_LIMIT_DEFAULT } from '../../../shared/limits';

/*
 * The OpenAPI 3.1 description of the REST facade (docs/reference.md), served at /api/v1/openapi.json and
 * rendered at /api/v1/docs. Generated: the paths from the route table (routes.ts), the shapes of the answers
 * from the operations behind them (result-schemas.ts), every error from the catalogue (error-responses.ts).
 * test/integration/api/openapi.test.ts checks real answers against it.
 */

const DESCRIPTION = `Sellers create card payments, send the customer to the payment's \`checkout_url\` (a hosted page that collects the card and handles 3-D Secure), and verify the outcome by retrieving the payment or from the \`payment.completed\` webhook. Amounts are integer cents of USD; a fee of 15% is deducted when the seller balance is credited. Live mode only: every payment is a real charge (use the 50-cent minimum to test).

**Authentication.** Every request under \`/api/v1\` except this document and its reference page carries \`Authorization: Bearer svc_live_<64 lowercase hex>\` (the scheme word in any case). Authentication runs before the body is read, so a bad body without a key is 401, not 400.

**Rate limit.** 100 requests per minute per API key (the spec's figure; operators may set another with \`RATE_LIMIT_PER_MINUTE\`), a fixed one-minute window shared by all instances. Every authenticated answer, errors included, carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix seconds). Over the limit: 429 with \`Retry-After\`. Failed authentications are limited separately per client address.

**Idempotency.** \`Idempotency-Key\` (1-${IDEMPOTENCY_KEY_MAX_LENGTH} characters) on create, scoped per shop and kept ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours. The same key and body answer the first answer again, byte for byte, with \`Idempotent-Replayed: true\`; a different body is 422; a request arriving while the first is still running is 409 with \`Retry-After: 1\`. A request that fails validation is not remembered.

**Envelope.** Every answer is JSON: \`{"success": true, "data": …}\` (plus \`pagination\` on lists) or \`{"success": false, "error": "<message>"}\`. The messages listed under each status are the only ones the service sends; clients may retry 429 and 5xx with back-off.

**Outside the routes below.** An unknown path under \`/api/v1\` (after authentication) or elsewhere is 404 \`Route not found\` (components/responses/RouteNotFound); a known path with another method is 405 \`Method not allowed\` with an \`Allow\` header (components/responses/MethodNotAllowed). API answers carry \`Cache-Control: no-store\`.`;

const ERROR_ENVELOPE: JsonSchema = {
  title: 'Error envelope',
  type: 'object',
  required: ['success', 'error'],
  additionalProperties: false,
  properties: { success: { const: false }, error: { type: 'string', description: 'The message, in plain words; see each status for the exact set.' } },
};

/** This document's own path: public, served by api-reference.ts. */
const DOCUMENT_PATH: PathItem = {
  get: {
    operationId: 'openApiDocument',
    summary: 'This document',
    description: 'Public: no API key. A readable rendering is at `/api/v1/docs`.',
    tags: ['Reference'],
    security: [],
    responses: {
      '200': {
        description: 'The OpenAPI 3.1 document.',
        headers: { 'X-Request-Id': ref('headers', 'X-Request-Id') },
        content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
      },
    },
  },
};

export function openApiDocument(baseUrl: string, routes: readonly RestRoute[], operations: Pick<NamedOperations, 'schema' | 'document'>): OpenApiDocument {
  const paths: Record<string, PathItem> = {};
  for (const route of routes) (paths[openApiPath(route)] ??= {})[route.method] = operationOf(route);
  paths['/openapi.json'] = DOCUMENT_PATH;
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Hosted-checkout payments API',
      version: '1.0.0',
      summary: 'Create card payments paid on a hosted checkout page, and read them back.',
      description: DESCRIPTION,
    },
    servers: [{ url: `${baseUrl}/api/v1`, description: 'This service' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Payments', description: 'Create, retrieve and list the calling shop\'s payments.' },
      { name: 'Authentication', description: 'Check that an API key works.' },
      { name: 'Events', description: 'The shop\'s events as a stream, for a developer\'s machine.' },
      { name: 'Reference', description: 'This document.' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'svc_live_<64 lowercase hex>', description: 'The shop\'s API key, shown once when the shop is created. Keep it server-side.' },
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      schemas: {
        ...fragmentSchemas(operations.schema, operations.document),
        ...Object.fromEntries(routes.flatMap(({ document }) => (document.body ? [[document.body.name, document.body.schema]] : []))),
        ...Object.fromEntries(routes.map((route) => [route.document.success.schema, isStreamRoute(route) ? route.document.success.data : successEnvelope(route.document.success)])),
        Error: ERROR_ENVELOPE,
      },
      responses: OUTSIDE_ROUTES,
    },
  };
}

/** Express `:name` parameters as OpenAPI `{name}`; a path parameter the route does not document fails the start. */
function openApiPath(route: RestRoute): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (!route.document.parameters?.some((p) => p === name)) throw new Error(`${route.method} ${route.path}: parameter ${name} is not documented`);
    return `{${name}}`;
  });
}

function operationOf(route: RestRoute): Operation {
  const { document } = route;
  const { body, success } = document;
  return {
    operationId: document.operationId,
    summary: document.summary,
    description: document.description,
    tags: [document.tag],
    parameters: [...(document.parameters ?? []), 'X-Request-Id'].map((name) => ref('parameters', name)),
    ...(body && {
      requestBody: {
        description: body.description,
        required: true,
        content: { 'application/json': { schema: ref('schemas', body.name), examples: body.examples } },
      },
    }),
    responses: { '200': isStreamRoute(route) ? streamResponse(success) : successResponse(success), ...errorResponses([...(document.errors ?? []), ...COMMON_ERRORS]) },
  };
}

function successResponse(success: RouteDocument['success']): ResponseObject {
  const example = success.list
    ? { success: true, data: success.example, pagination: { page: 1, limit: PAGE_LIMIT_DEFAULT, total: 1, pages: 1 } }
    : { success: true, data: success.example };
  return {
    description: success.description,
    headers: headersFor('required', success.headers),
    content: { 'application/json': { schema: ref('schemas', success.schema), examples: { example: { summary: 'Example', value: example } } } },
  };
}

/** A stream's answer: Server-Sent Events, each message's data of the schema named. */
function streamResponse(success: RouteDocument['success']): ResponseObject {
  return {
    description: `${success.description} Each \`data\` line is components/schemas/${success.schema}.`,
    headers: headersFor('required', success.headers),
    content: { 'text/event-stream': { schema: { type: 'string' }, example: success.example } },
  };
}

/** Spec, Response envelope: `{success: true, data}`, plus `pagination` on lists. */
function successEnvelope(success: RouteDocument['success']): JsonSchema {
  const properties: Record<string, JsonSchema> = success.list
    ? { success: { const: true }, data: { type: 'array', items: success.data }, pagination: ref('schemas', 'Pagination') }
    : { success: { const: true }, data: success.data };
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}
