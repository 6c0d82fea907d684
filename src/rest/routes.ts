import type { Request, Response } from 'express';
import type { ErrorGroup } from './openapi/error-responses';
import { EXAMPLE_COMPLETED, EXAMPLE_CREATE_BODIES, EXAMPLE_PAYMENT, EXAMPLE_SHOP } from './openapi/examples';
import type { HeaderName, ParameterName } from './openapi/headers-and-parameters';
import { ref, type Example, type JsonSchema } from './openapi/types';
import type { RestOperationName, RestOperationResults } from './operation-results';
import { CREATE_PAYMENT_BODY, createPaymentVariables, listPaymentsVariables } from './payment-request';
import { paymentView } from './payment-view';
import { CREATE_PAYMENT_ERRORS, LIST_PAYMENTS_ERRORS, RETRIEVE_PAYMENT_ERRORS } from './route-errors';

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

/** One REST route: which named GraphQL operation it runs, with which variables, how the answer reads. */
export interface Route<Op extends RestOperationName> {
  method: 'get' | 'post';
  /** An Express path; its `:name` parameters are `{name}` in the document. */
  path: string;
  /** An operation of schema/operations/rest.graphql; the router refuses to start without it. */
  operation: Op;
  variables(req: Request): Record<string, unknown>;
  respond(result: RestOperationResults[Op], res: Response): RestAnswer;
  document: RouteDocument;
}

export type RestRoute = { [Op in RestOperationName]: Route<Op> }[RestOperationName];

const fragment = (name: string) => ref('schemas', name);

/** The whole seller-facing REST contract (spec, Endpoints), in one table. Order matters: /test before /:id. */
export const REST_ROUTES: RestRoute[] = [
  {
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
  },
  {
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
  },
  {
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
      errors: LIST_PAYMENTS_ERRORS,
    },
  },
  {
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
      errors: RETRIEVE_PAYMENT_ERRORS,
    },
  },
];
