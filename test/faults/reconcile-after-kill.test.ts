import { checkLedger } from '../../src/modules/ledger/ledger-invariants';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { eventually } from '../support/admin-client';
import { checkoutClient } from '../support/checkout-client';
import { useBuiltService } from '../support/built-service';
import { freePort } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';

jest.setTimeout(90_000);

/** The inspector reads the database and never sweeps in time (its RECONCILE_AFTER_MS is an hour). */
const faults = useBuiltService('reconcile', { RECONCILE_AFTER_MS: '3600000' });

const startProcess = (port: number, reconcileAfterMs: number) =>
  faults.start(port, { RECONCILE_AFTER_MS: String(reconcileAfterMs), RECONCILE_INTERVAL_MS: '100' });

test('SIGKILL of the instance that made the …0341 call: after a restart it completes once, from what the acquirer kept', async () => {
  const port = await freePort();
  const url = await startProcess(port, 3_600_000);
  const { apiKey, shop } = await faults.inspector.createShop();
  const id = (await sellerClient(url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await checkoutClient(url).pay(id, '4000000000000341');
  expect((await faults.inspector.em().findOneOrFail(Payment, id)).checkoutStage).toBe('processing');
  await faults.running!.stop('SIGKILL');

  // A new process: nothing of the old one's memory, only the database (ours and the simulated acquirer's).
  await startProcess(port, 200);
  const em = faults.inspector.em();
  await eventually(async () => (await em.findOneOrFail(Payment, { id }, { refresh: true })).status === 'completed', 10_000, 'the payment to complete after the restart');
  expect(await em.count(LedgerEntry, { paymentId: id, sellerId: shop.seller.id })).toBe(2);
  expect(await em.count(WebhookEvent, { paymentId: id })).toBe(1);
  expect((await checkLedger(em)).violations).toEqual([]);
  await faults.running!.stop('SIGTERM');
});
