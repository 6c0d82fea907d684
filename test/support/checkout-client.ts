import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';

/** The exact document the checkout page sends (the server allow-lists public callers by it). */
export const CHECKOUT_DOCUMENT = fs.readFileSync(path.join(__dirname, '../../schema/operations/checkout.graphql'), 'utf8');

export interface CardFields {
  expMonth: number;
  expYear: number;
  securityCode: string;
}

export const CARD: Readonly<CardFields> = Object.freeze({ expMonth: 12, expYear: new Date().getFullYear() + 3, securityCode: '123' });

/**
 * A customer's browser talking to /graphql. `headers` go with every request: X-Forwarded-For makes it a
 * customer behind a load balancer (believed only when the service trusts loopback, TRUST_PROXY).
 */
export function checkoutClient(baseUrl: string, headers: Record<string, string> = {}) {
  const run = (operationName: string, variables: Record<string, unknown>) =>
    request(baseUrl).post('/graphql').set('Content-Type', 'application/json').set(headers).send({ query: CHECKOUT_DOCUMENT, operationName, variables });
  return {
    run,
    view: (id: string) => run('CheckoutPayment', { id }),
    pay: (id: string, number: string, card: Partial<CardFields> = {}) => run('SubmitCard', { id, card: { number, ...CARD, ...card } }),
    authenticate: (id: string, authenticated: boolean) => run('AnswerThreeDSecure', { id, authenticated }),
    cancel: (id: string) => run('CancelCheckout', { id }),
  };
}
