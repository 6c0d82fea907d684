import { checkLedger } from '../../src/modules/ledger/ledger-invariants';
import { LedgerAccount, LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { checkoutClient } from '../support/checkout-client';
import { useBuiltService } from '../support/built-service';
import { freePort } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';

jest.setTimeout(90_000);

const faults = useBuiltService('signals');

/** The built service as its own process, with a slow acquirer so a signal lands mid-payment. */
const startProcess = (port: number, acquirerDelayMs: number) => faults.start(port, { SIMULATED_ACQUIRER_DELAY_MS: String(acquirerDelayMs) });

test('SIGKILL in the middle of completions: after a restart nothing is half-done', async () => {
  const port = await freePort();
  const url = await startProcess(port, 300);
  const seller = sellerClient(url, (await faults.inspector.createShop()).apiKey);
  const ids = await Promise.all(Array.from({ length: 30 }, async () => (await seller.create(VALID_PAYMENT)).body.data.id as string));
  const customer = checkoutClient(url);
  const submits = ids.map((id, i) => new Promise((resolve) => setTimeout(resolve, i * 30)).then(() => customer.pay(id, '4242424242424242').catch(() => null)));
  // Kill the moment the first payment has completed, while later submissions are at the acquirer.
  while ((await faults.inspector.em().count(Payment, { id: ids, status: 'completed' as never })) === 0) await new Promise((r) => setTimeout(r, 10));
  await faults.running!.stop('SIGKILL');
  await Promise.all(submits);
  await startProcess(port, 0);

  const em = faults.inspector.em();
  let completed = 0;
  for (const id of ids) {
    const payment = await em.findOneOrFail(Payment, id);
    const credits = await em.count(LedgerEntry, { paymentId: id, account: LedgerAccount.SELLER_BALANCE });
    const events = await em.count(WebhookEvent, { paymentId: id });
    if (payment.status === 'completed') {
      completed++;
      expect([credits, events, payment.completedAt !== null]).toEqual([2, 1, true]);
    } else {
      expect([payment.status, credits, events]).toEqual(['pending', 0, 0]);
    }
  }
  expect(completed).toBeGreaterThan(0);
  expect(completed).toBeLessThan(ids.length);
  expect((await checkLedger(em)).violations).toEqual([]);
  await faults.running!.stop('SIGTERM');
});

test('SIGTERM drains: a payment at the acquirer finishes and is answered, then the process exits 0 and takes no more requests', async () => {
  const port = await freePort();
  const url = await startProcess(port, 1500);
  const seller = sellerClient(url, (await faults.inspector.createShop()).apiKey);
  const id = (await seller.create(VALID_PAYMENT)).body.data.id;
  const answer = checkoutClient(url).pay(id, '4242424242424242');
  const exited = new Promise((resolve) => setTimeout(resolve, 300)).then(() => faults.running!.stop('SIGTERM'));
  const res = await answer;
  expect(res.body.data.submitCard.status).toBe('COMPLETED');
  expect(await exited).toBe(0);
  await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  expect(faults.running!.stdout()).toMatch(/shutting down: draining requests/);
});
