import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import type { CardProcessor } from '../../../src/platform/processor/card-processor';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { useEmptyDatabase } from '../../support/databases';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

jest.setTimeout(60_000);

/** Its own database: no other instance's sweep may settle the payment behind this test's back. */
const database = useEmptyDatabase('payments_giveup');
const service = useTestService(() => ({ DATABASE_URL: database.url, RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '100', RECONCILE_GIVE_UP_MS: '10' }));

const NEEDS_ATTENTION = `query ($id: ID!) { payment(id: $id) { status needsAttentionAt } }`;

test('an outcome the acquirer cannot tell past RECONCILE_GIVE_UP_MS is flagged for admins and counted; settled later, the flag clears', async () => {
  const processor = service.services.checkout.processor as CardProcessor;
  const lookup = processor.lookupAuthorization.bind(processor);
  // The acquirer's status query is down (the acquirer is the one thing outside our system we stand in for).
  processor.lookupAuthorization = async () => {
    throw new Error('acquirer status query unreachable');
  };
  const { apiKey } = await service.createShop();
  const id = (await sellerClient(service.url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await checkoutClient(service.url).pay(id, '4000000000000341');

  const support = await adminClient(service, AdminRole.SUPPORT);
  const flagged = await eventually(async () => (await support.ok(NEEDS_ATTENTION, { id })).payment.needsAttentionAt, 5000, 'the flag');
  expect(Number.isNaN(Date.parse(flagged))).toBe(false);
  expect((await support.ok(NEEDS_ATTENTION, { id })).payment.status).toBe('PENDING');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
  const metrics = (await request(service.url).get('/metrics')).text;
  expect(metrics).toMatch(/reconciliation_needs_attention\{kind="payment"\} 1/);
  expect(metrics).toMatch(/reconciliations_total\{kind="payment",outcome="unknown"\} [1-9]/);

  processor.lookupAuthorization = lookup;
  await eventually(async () => (await service.em().findOneOrFail(Payment, { id }, { refresh: true })).status === 'completed', 5000, 'the payment to complete');
  expect((await support.ok(NEEDS_ATTENTION, { id })).payment).toEqual({ status: 'COMPLETED', needsAttentionAt: null });
  expect((await request(service.url).get('/metrics')).text).toMatch(/reconciliation_needs_attention\{kind="payment"\} 0/);
});
