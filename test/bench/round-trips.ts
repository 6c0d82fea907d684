import { Writable } from 'node:stream';
import { Client } from 'pg';
import { startService } from '../../src/apps/service';
import { loadConfig } from '../../src/shared/config';
import { createLogger } from '../../src/shared/logger';
import { createSellerWithShop } from '../../src/modules/identity/shop-provisioning';
import { approvedSubmission } from './card-submission';
import { BENCH_STATEMENT_KEY } from './children';

/**
 * Round trips to PostgreSQL of one checkout completion (SubmitCard, approving card): a service started in
 * this process, whose pg driver counts the statements it sends while the request runs (each statement,
 * BEGIN and COMMIT included, is one wait on the database). Background work is slowed right down so only the
 * request counts, and the probe's shop has no webhook URL, so the relay, woken after the commit, does not
 * read beside it (the delivery INSERT is part of the completion statement either way).
 * test/integration/checkout/completion-round-trips.test.ts holds the same count to its budget.
 */
export async function completionRoundTrips(env: Record<string, string>): Promise<{ roundTrips: number; statements: string[] }> {
  const config = loadConfig({
    STATEMENT_SIGNING_KEY: BENCH_STATEMENT_KEY,
    ...env,
    PORT: '0',
    WEB_CONCURRENCY: '1',
    WEBHOOK_POLL_INTERVAL_MS: '60000',
    WEBHOOK_WORKERS_IN_SERVICE: '0',
    RECONCILE_INTERVAL_MS: '3600000',
    REFUND_SWEEP_INTERVAL_MS: '3600000',
  });
  const service = await startService(config, createLogger('silent', new Writable({ write: (_c, _e, done) => done() })));
  const statements: string[] = [];
  let counting = false;
  const original = Client.prototype.query;
  Client.prototype.query = function counted(this: Client, ...args: unknown[]) {
    const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    // The request log's batch (the create's entry, written a moment after its answer) is not the completion's.
    if (counting && !/^\s*insert into "api_requests"/.test(sql)) statements.push(sql);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  try {
    const { apiKey } = await createSellerWithShop(service.database.orm.em.fork(), { email: `round-trips-${Date.now()}@example.com`, shopName: 'Round trips' }, service.services.accounts.secrets);
    const created = await fetch(`${service.url}/api/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks' }),
    }).then((r) => r.json());
    counting = true;
    const paid = await fetch(`${service.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: approvedSubmission(created.data.id) }).then((r) => r.json());
    counting = false;
    if (paid.data?.submitCard?.status !== 'COMPLETED') throw new Error(`round-trip probe did not complete: ${JSON.stringify(paid)}`);
    return { roundTrips: statements.length, statements };
  } finally {
    Client.prototype.query = original;
    await service.stop();
  }
}
