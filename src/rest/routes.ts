import type { Request, Response } from 'express';
import type { GraphQLPayment } from './payment-view';
import { createdPaymentView, paymentView } from './payment-view';
import { createPaymentVariables, listPaymentsVariables } from './payment-request';

/** One REST route: which named GraphQL operation it runs, with which variables, and how the answer reads. */
export interface RestRoute {
  method: 'get' | 'post';
  path: string;
  /** An operation of schema/operations/rest.graphql. */
  operation: string;
  /** The route reads a JSON body. */
  jsonBody?: boolean;
  variables(req: Request): Record<string, unknown>;
  respond(data: any, res: Response): { data: unknown; pagination?: unknown };
}

/** The whole seller-facing REST contract (spec, Endpoints), in one table. Order matters: /test before /:id. */
export const REST_ROUTES: RestRoute[] = [
  {
    method: 'get',
    path: '/payments/test',
    operation: 'CurrentShop',
    variables: () => ({}),
    respond: ({ currentShop }) => ({
      data: { authenticated: true, mode: 'live', shop: { id: currentShop.id, shop_name: currentShop.name } },
    }),
  },
  {
    method: 'post',
    path: '/payments',
    operation: 'CreatePayment',
    jsonBody: true,
    variables: (req) => createPaymentVariables(req.body, req.get('idempotency-key')),
    respond: ({ createPayment }, res) => {
      if (createPayment.replayed) res.setHeader('Idempotent-Replayed', 'true');
      return { data: createdPaymentView(createPayment.payment) };
    },
  },
  {
    method: 'get',
    path: '/payments',
    operation: 'ListPayments',
    variables: (req) => listPaymentsVariables(req.query),
    respond: ({ payments }) => ({
      data: payments.items.map((p: GraphQLPayment) => paymentView(p)),
      pagination: payments.pagination,
    }),
  },
  {
    method: 'get',
    path: '/payments/:id',
    operation: 'GetPayment',
    variables: (req) => ({ id: req.params.id }),
    respond: ({ payment }) => ({ data: paymentView(payment) }),
  },
];
