import type { Request, Response } from 'express';
import { errorCase, type ErrorGroup } from './openapi/error-responses';
import { EXAMPLE_COMPLETED, EXAMPLE_CREATE_BODIES, EXAMPLE_PAYMENT, EXAMPLE_SHOP } from './openapi/examples';
import type { HeaderName, ParameterName } from './openapi/headers-and-parameters';
import { ref, type Example, type JsonSchema } from './openapi/types';
import type { PaginationFields, PaymentFields, PaymentWithCompletionFields, ShopFields } from './fragments';
import { CREATE_PAYMENT_BODY, CREATE_PAYMENT_ERRORS, createPaymentVariables, listPaymentsVariables } from './payment-request';
import { paymentView } from './payment-view';
import { PAGE_LIMIT_MAX } from '../../shared/limits';
import { PAYMENT_STATUSES } from '../../modules/payments';

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
  tag: 'Payments' | 'Authentication';
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

/** A route of the table, its result type kept at its definition (the router hands it what the operation answered). */
export type RestRoute = Route<unknown>;

/** An entry of the table, its result handler typed by the `Result` given. */
export const defineRoute = <Result>(definition: Route<Result>): RestRoute => definition;

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
      return { data: paymentView(createPayment.payment) };
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
    respond: ({ payments }) => ({ data: payments.items.map(paymentView), pagination: payments.pagination }),
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
    respond: ({ payment }) => ({ data: paymentView(payment) }),
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
];
