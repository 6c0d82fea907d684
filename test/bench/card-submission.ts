import fs from 'node:fs';
import { Client } from 'pg';
import path from 'node:path';
import { TEST_CARDS } from '../../src/platform/processor/simulated-acquirer';
import { PROJECT_ROOT } from '../../src/shared/project-root';

const CHECKOUT_DOCUMENT = fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations/checkout.graphql'), 'utf8');

/** The simulator's card that approves without 3-D Secure, taken from its table rather than written again. */
const APPROVED_NUMBER = Object.keys(TEST_CARDS).find((number) => {
  const behaviour = TEST_CARDS[number];
  return behaviour.kind === 'approve' && behaviour.threeDs === null;
})!;

const CARD = { number: APPROVED_NUMBER, expMonth: 12, expYear: new Date().getFullYear() + 2, securityCode: '123' };

/** The body of the checkout page's SubmitCard call for this payment, with a card that completes it. */
export function approvedSubmission(paymentId: string): string {
  return JSON.stringify({ query: CHECKOUT_DOCUMENT, operationName: 'SubmitCard', variables: { id: paymentId, card: CARD } });
}

/** `count` payable payments of one shop, inserted in bulk (creating them is not what a completion bench measures). */
export async function payablePayments(databaseUrl: string, shopId: string, count: number): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `insert into payments (id, shop_id, amount, currency, return_url, metadata)
       select 'pay_' || substr(md5(random()::text || g::text), 1, 24), $1, 1234, 'usd', 'https://shop.example.com/thanks', '{}'
         from generate_series(1, $2) g returning id`,
      [shopId, count],
    );
    // Statistics for the bulk-loaded rows, as autovacuum would gather them within a minute in production. Without
    // them the planner can pick payments_shop_status_created_idx for a `where id = … and shop_id = … and status = …`
    // UPDATE and walk every pending payment of the shop: the plain baseline's completion fell from ~550 to ~150 a
    // second that way in earlier runs, which made the completion ratio look three times better than it was.
    await client.query('analyze "payments"');
    return rows.map((r) => r.id as string);
  } finally {
    await client.end();
  }
}

/**
 * autocannon's options for `count` card completions, each of a fresh payment: the checkout's SubmitCard through the
 * service's GraphQL at `origin`, or (`baseline`) the plain baseline's completion transaction. Past `count` the payments
 * come round again (already completed: each answers at once).
 */
export async function completionLoad(origin: string, baseline: boolean, databaseUrl: string, shopId: string, count: number): Promise<Record<string, unknown>> {
  const ids = await payablePayments(databaseUrl, shopId, count);
  let next = 0;
  const nextId = () => ids[next++ % ids.length];
  return baseline
    ? { url: origin, method: 'POST', requests: [{ setupRequest: (req: object) => ({ ...req, path: `/payments/${nextId()}/complete` }) }] }
    : {
        url: `${origin}/graphql`, method: 'POST', headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: object) => ({ ...req, body: approvedSubmission(nextId()) }) }],
      };
}
