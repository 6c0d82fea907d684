import type { Request, Response } from 'express';
import { anyDetails, errorCase, type ErrorGroup } from './openapi/error-responses';
import { EXAMPLE_COMPLETED, EXAMPLE_CREATE_BODIES, EXAMPLE_PAYMENT, EXAMPLE_SHOP } from './openapi/examples';
import type { HeaderName, ParameterName } from './openapi/headers-and-parameters';
import { ref, type Example, type JsonSchema } from './openapi/types';
import type { PaginationFields, PaymentFields, PaymentWithCompletionFields, ShopFields } from './fragments';
import { CREATE_PAYMENT_BODY, CREATE_PAYMENT_ERRORS, createPaymentVariables, listPaymentsVariables } from './payment-request';
import { toRestPayment } from './rest-payment';
import { PAGE_LIMIT_MAX } from '../../shared/limits';
import { PAYMENT_STATUSES } from '../../modules/payments';
import { STREAM_LIMITS } from './stream-limits';

/*
 * The seller-facing REST contract (spec, Endpoints), one entry per route and nothing per route anywhere else:
 * the router (rest-router.ts) mounts the entries, the OpenAPI document (openapi/document.ts) is generated from
 * them, and the errors a route answers are catalogue entries (src/shared/errors.ts) its entry lists. What
 * is shared by routes lives beside: the fragments' types (fragments.ts), examples, headers and parameters
 * (openapi/), the create body's schema and checks (payment-request.ts). test/unit/rest-routes.test.ts fails
 * when a second per-route list appears.
 */

/** What a route answers inside the envelope. */
export interface RestAnswer {
  data: unknown;
  pagination?: unknown;
}

/** What the OpenAPI document says of a route, beside what every route shares (openapi/document.ts). */
export interface RouteDocument {
  operationId: string;
  summary: string;
  description: string;
  tag: 'Payments' | 'Authentication' | 'Events';
  /** Parameters beyond `X-Request-Id`, which every route takes; the path's own included. */
  parameters?: ParameterName[];
  /** The JSON body the route reads (the router parses it), its schema shown as components/schemas/`name`. */
  body?: { name: string; description: string; schema: JsonSchema; examples: Record<string, Example> };
  success: {
    description: string;
    /** The answer's schema in components/schemas. */
    schema: string;
    /** The schema of `data`: mostly a fragment's of rest.graphql (openapi/result-schemas.ts). */
    data: JsonSchema;
    /** `data` is a list of it, with `pagination`. */
    list?: boolean;
    example: unknown;
    headers?: HeaderName[];
  };
  /** The catalogue errors the route answers beyond those of every route. */
  errors?: ErrorGroup[];
}

/**
 * One REST route: which named GraphQL operation it runs, with which variables, how the answer reads.
 * `Result` is what the operation answers, written with the route from the fragments' types (`defineRoute<Result>`).
 */
export interface Route<Result> {
  method: 'get' | 'post';
  /** An Express path; its `:name` parameters are `{name}` in the document. */
  path: string;
  /** An operation of schema/operations/rest.graphql; the router refuses to start without it. */
  operation: string;
  variables(req: Request): Record<string, unknown>;
  respond(result: Result, res: Response): RestAnswer;
  document: RouteDocument;
}

/** One message of a Server-Sent Events stream: its id (the cursor a client resumes after), its event name, its data line. */
export interface StreamMessage {
  id: string;
  event: string;
  data: string;
}

/**
 * A route answering a Server-Sent Events stream rather than one envelope (sse-stream.ts): its operation runs again and
 * again, each run after the cursor the last one ended at, and each run's messages are written as they come. A refusal
 * before the stream opens is the envelope, as on every route.
 */
export interface StreamRoute<Result> {
  method: 'get';
  path: string;
  operation: string;
  /** The variables of a run after `cursor`; at first the request's `Last-Event-ID` (null without one). */
  variables(req: Request, cursor: string | null): Record<string, unknown>;
  /** A run's messages, and the cursor the next run continues after. */
  stream(result: Result): { cursor: string; messages: StreamMessage[] };
  /** `success.data` is the schema of one message's data; `success.example` a stretch of the stream, as text. */
  document: RouteDocument;
}

/** A route of the table, its result type kept at its definition (the router hands it what the operation answered). */
export type RestRoute = Route<unknown> | StreamRoute<unknown>;

/** An entry of the table, its result handler typed by the `Result` given. */
export const defineRoute = <Result>(definition: Route<Result>): Route<unknown> => definition;

/** A stream entry of the table. */
export const defineStreamRoute = <Result>(definition: StreamRoute<Result>): StreamRoute<unknown> => definition as StreamRoute<unknown>;

export const isStreamRoute = (route: RestRoute): route is StreamRoute<unknown> => 'stream' in route;

const fragment = (name: string) => ref('schemas', name);

/** The whole seller-facing REST contract (spec, Endpoints), in one table. Order matters: /test before /:id. */
export const REST_ROUTES: RestRoute[] = [
  defineRoute<{ currentShop: ShopFields }>({
    method: 'get',
    path: '/payments/test',
    operation: 'CurrentShop',
    variables: () => ({}),
    respond: ({ currentShop }) => ({ data: { authenticated: true, mode: 'live', shop: currentShop } }),
    document: {
      operationId: 'testApiKey',
      summary: 'Check an API key',
      description: 'Answers 200 with the key\'s shop when the key works; the same 401/403/429 as every route when it does not.',
      tag: 'Authentication',
      success: {
        description: 'The key works.',
        schema: 'ApiKeyTestResponse',
        data: {
          type: 'object',
          required: ['authenticated', 'mode', 'shop'],
          additionalProperties: false,
          properties: {
            authenticated: { const: true },
            mode: { const: 'live', description: 'The service runs in live mode only.' },
            shop: fragment('Shop'),
          },
        },
        example: { authenticated: true, mode: 'live', shop: EXAMPLE_SHOP },
      },
    },
  }),
  defineRoute<{ createPayment: { replayed: boolean; payment: PaymentFields } }>({
    method: 'post',
    path: '/payments',
    operation: 'CreatePayment',
    variables: (req) => createPaymentVariables(req.body, req.get('idempotency-key')),
    respond: ({ createPayment }, res) => {
      if (createPayment.replayed) res.setHeader('Idempotent-Replayed', 'true');
      return { data: toRestPayment(createPayment.payment) };
    },
    document: {
      operationId: 'createPayment',
      summary: 'Create a payment',
      description: 'Creates a `pending` payment and answers its `checkout_url`. Fields are checked in the order listed and the first problem is reported. Unknown fields are ignored.',
      tag: 'Payments',
      parameters: ['Idempotency-Key'],
      body: {
        name: 'CreatePaymentRequest',
        description: 'A JSON object of at most 64 KB (after decompression: `Content-Encoding` gzip, deflate and br are read). `Content-Type` must be `application/json` (a `charset` other than `utf-8`, `utf-16` or `utf-32` is 415).',
        schema: CREATE_PAYMENT_BODY,
        examples: EXAMPLE_CREATE_BODIES,
      },
      success: {
        description: 'The payment was created (or, with `Idempotent-Replayed: true`, the first answer to this key is repeated).',
        schema: 'PaymentCreatedResponse',
        data: fragment('Payment'),
        example: EXAMPLE_PAYMENT,
        headers: ['Idempotent-Replayed'],
      },
      errors: CREATE_PAYMENT_ERRORS,
    },
  }),
  defineRoute<{ payments: { items: PaymentWithCompletionFields[]; pagination: PaginationFields } }>({
    method: 'get',
    path: '/payments',
    operation: 'ListPayments',
    variables: (req) => listPaymentsVariables(req.query),
    respond: ({ payments }) => ({ data: payments.items.map(toRestPayment), pagination: payments.pagination }),
    document: {
      operationId: 'listPayments',
      summary: 'List payments',
      description: 'The calling shop\'s payments, newest first, each as the retrieve payload. A page past the end is an empty list.',
      tag: 'Payments',
      parameters: ['page', 'limit', 'status'],
      success: {
        description: 'One page of payments.',
        schema: 'PaymentListResponse',
        data: fragment('PaymentWithCompletion'),
        list: true,
        example: [EXAMPLE_COMPLETED],
      },
      errors: [
        {
          description: 'A query parameter is not valid.',
          cases: [
            errorCase('`page` not a positive integer (also when given twice).', 'PAGE_INVALID'),
            errorCase(`\`limit\` not an integer from 1 to ${PAGE_LIMIT_MAX}.`, 'LIMIT_INVALID'),
            errorCase('`status` not one of the four payment statuses (lowercase).', 'STATUS_FILTER_INVALID', PAYMENT_STATUSES.join(', ')),
          ],
        },
      ],
    },
  }),
  defineRoute<{ payment: PaymentWithCompletionFields }>({
    method: 'get',
    path: '/payments/:id',
    operation: 'GetPayment',
    variables: (req) => ({ id: req.params.id }),
    respond: ({ payment }) => ({ data: toRestPayment(payment) }),
    document: {
      operationId: 'retrievePayment',
      summary: 'Retrieve a payment',
      description: 'The payment with `completed_at`. Only the calling shop\'s payments are found.',
      tag: 'Payments',
      parameters: ['id'],
      success: { description: 'The payment.', schema: 'PaymentResponse', data: fragment('PaymentWithCompletion'), example: EXAMPLE_COMPLETED },
      errors: [
        {
          description: 'No such payment for this shop.',
          cases: [errorCase('A wrong or malformed id (even one that is not valid percent-encoding), another shop\'s payment, or a deleted one.', 'PAYMENT_NOT_FOUND')],
        },
      ],
    },
  }),
  defineStreamRoute<{ eventStream: { cursor: string; events: { id: string; type: string; test: boolean; body: string }[] } }>({
    method: 'get',
    path: '/events/stream',
    operation: 'ShopEventStream',
    variables: (_req, cursor) => ({ after: cursor }),
    stream: ({ eventStream }) => ({
      cursor: eventStream.cursor,
      messages: eventStream.events.map((event) => ({ id: event.id, event: event.type, data: JSON.stringify({ test: event.test, body: event.body }) })),
    }),
    document: {
      operationId: 'streamShopEvents',
      summary: 'Stream the shop\'s events',
      description:
        'Server-Sent Events (`text/event-stream`): every event of the shop in the order it was written, whatever the webhook settings choose, test events included, for a developer\'s machine (`npm run seller -- listen` forwards each to a local URL, signed). ' +
        `The first message is \`ready\`, its \`id\` where the stream starts; then one message per event, its \`id\` the event's id and \`event\` its type. Send the last \`id\` received as \`Last-Event-ID\` to resume: nothing is lost or repeated. A comment line every ${STREAM_LIMITS.heartbeatMs / 1000} s keeps the connection alive; the service ends a stream after ${STREAM_LIMITS.maxDurationMs / 60_000} minutes (reconnect) and at most ${STREAM_LIMITS.perShop} streams of a shop may be open at once per instance. An event reaches the stream once every transaction begun before it has ended, usually within a second. Not a delivery: webhooks still go to the webhook URL.`,
      tag: 'Events',
      parameters: ['Last-Event-ID'],
      success: {
        description: 'The stream. Each message\'s `data` is a JSON object: `body`, the exact bytes a webhook delivery of the event sends and signs, and `test`, whether the delivery carries `X-Service-Test: true`.',
        schema: 'ShopEventMessage',
        data: {
          type: 'object',
          required: ['test', 'body'],
          additionalProperties: false,
          properties: {
            test: { type: 'boolean', description: 'A test event (`X-Service-Test: true` on its delivery).' },
            body: { type: 'string', description: 'The webhook body, byte for byte: sign these bytes as a delivery does (docs/reference.md, "Webhooks").' },
          },
        },
        example:
          'retry: 2000\nid: evt_3kTMd2mXq8uV0aRbWc5pLs7e\nevent: ready\ndata: {}\n\n' +
          'id: evt_9QxLm2Pq8uV0aRbWc5pLs7eK\nevent: payment.completed\ndata: {"test":false,"body":"{\\"id\\":\\"evt_9QxLm2Pq8uV0aRbWc5pLs7eK\\",\\"event\\":\\"payment.completed\\",…}"}\n\n',
      },
      errors: [
        {
          description: '`Last-Event-ID` names no event of this shop.',
          cases: [errorCase('Not an event id this shop\'s stream sent (another shop\'s events are unknown here), nor `0`.', 'EVENT_STREAM_CURSOR_INVALID')],
        },
        {
          description: 'Too many streams of this shop are open on this instance.',
          cases: [anyDetails(errorCase('Close a stream (another `listen`) first.', 'EVENT_STREAMS_EXCEEDED', STREAM_LIMITS.perShop), '[0-9]+')],
          headers: ['Retry-After'],
        },
      ],
    },
  }),
];
