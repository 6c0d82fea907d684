import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../../src/modules/payments/payment-status';
import { checkoutClient } from '../../support/checkout-client';
import { runNode } from '../../support/processes';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useEmptyDatabase } from '../../support/databases';
import { useTestService } from '../../support/test-service';

/** A database of its own: the checker looks at every seller, and this test breaks the books on purpose. */
const database = useEmptyDatabase('payments_ledger');
const service = useTestService(() => ({ DATABASE_URL: database.url }));

test('after completions, declines and 3-D Secure outcomes the books hold; a completed payment without entries is reported', async () => {
  const seller = sellerClient(service.url, (await service.createShop()).apiKey);
  const customer = checkoutClient(service.url);
  for (const card of ['4242424242424242', '4000000000000002', '4000000032200000', '4242424242424242']) {
    await customer.pay((await seller.create({ ...VALID_PAYMENT, amount: 999 })).body.data.id, card);
  }
  const clean = await checkLedger(service.em());
  expect(clean).toMatchObject({ sellers: 1, entries: 12, violations: [] });
  expect(clean.invariants).toBeGreaterThanOrEqual(7);

  const cli = await runNode('cli.js', ['check-ledger'], { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  expect(cli.code).toBe(0);
  expect(JSON.parse(cli.stdout).violations).toEqual([]);

  // A payment marked completed behind the ledger's back: no credit, no fee, and the balance is short.
  const broken = (await seller.create(VALID_PAYMENT)).body.data.id;
  await service.em().nativeUpdate(Payment, { id: broken }, { status: PaymentStatus.COMPLETED, completedAt: new Date() });
  const report = await checkLedger(service.em());
  expect(report.violations.map((v) => v.invariant).sort()).toEqual(['balance_matches_records', 'completed_payment_booked_once']);
  expect(report.violations.find((v) => v.invariant === 'completed_payment_booked_once')?.subject).toBe(broken);

  const failing = await runNode('cli.js', ['check-ledger'], { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  expect(failing.code).toBe(1);
});
