import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { createPayment } from '../../src/modules/payments/payment.service';
import { liveTestAllowance, runLiveTest } from '../../src/modules/payments/live-test';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';

/**
 * Live tests (src/modules/payments/live-test.ts, docs/dashboard.md "Live test"), on the run's database: a pending payment
 * of exactly 50 cents marked `test`, at most 5 per shop per UTC day, whatever became of them. The numbers are
 * written out here, not read from the limits, so a changed limit fails this file.
 */
// Enough connections for the concurrent starts below to really wait on each other.
const db = useModuleDatabase({ poolSize: 4 });
const BASE_URL = 'https://pay.example';

const liveTestsOf = (shopId: string) => db.em().find(Payment, { shop: shopId, test: true });
const startOfTodayUtc = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};

test('a live test is a pending test payment of 50 cents in usd for the shop, coming back to the dashboard', async () => {
  const shop = await db.newShop('live-amount');
  const started = await runLiveTest(db.em(), shop.shop.id, BASE_URL);
  const stored = await db.em().findOneOrFail(Payment, { id: started.id });
  expect(stored).toMatchObject({ amount: 50, currency: 'usd', test: true, status: PaymentStatus.PENDING, returnUrl: `${BASE_URL}/dashboard/developers` });
  expect(stored.shop.id).toBe(shop.shop.id);
});

test('at most 5 per shop per UTC day: the sixth is refused and writes nothing; ordinary payments and other shops do not count', async () => {
  const shop = await db.newShop('live-limit');
  await createPayment(db.em(), shop.shop.id, { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  for (let n = 0; n < 5; n++) await runLiveTest(db.em(), shop.shop.id, BASE_URL);
  expect(await liveTestAllowance(db.em(), shop.shop.id)).toEqual({ dailyLimit: 5, usedToday: 5, remainingToday: 0 });

  const refused = await refusedWith(runLiveTest(db.em(), shop.shop.id, BASE_URL));
  expect(refused.code).toBe('LIVE_TEST_LIMIT_REACHED');
  expect(refused.message).toContain('its 5 live tests');
  expect(await liveTestsOf(shop.shop.id)).toHaveLength(5);

  const other = await db.newShop('live-other');
  expect(await liveTestAllowance(db.em(), other.shop.id)).toEqual({ dailyLimit: 5, usedToday: 0, remainingToday: 5 });
  expect((await runLiveTest(db.em(), other.shop.id, BASE_URL)).test).toBe(true);
});

test('the day is the UTC day: tests from before midnight UTC do not count, one at midnight does', async () => {
  const shop = await db.newShop('live-day');
  for (let n = 0; n < 5; n++) await runLiveTest(db.em(), shop.shop.id, BASE_URL);
  const ids = (await liveTestsOf(shop.shop.id)).map((payment) => payment.id);
  const midnight = startOfTodayUtc();
  await db.em().nativeUpdate(Payment, { id: { $in: ids } }, { createdAt: new Date(midnight.getTime() - 1) });
  expect(await liveTestAllowance(db.em(), shop.shop.id)).toEqual({ dailyLimit: 5, usedToday: 0, remainingToday: 5 });

  await db.em().nativeUpdate(Payment, { id: ids[0] }, { createdAt: midnight });
  expect((await liveTestAllowance(db.em(), shop.shop.id)).usedToday).toBe(1);
  for (let n = 0; n < 4; n++) await runLiveTest(db.em(), shop.shop.id, BASE_URL);
  expect((await refusedWith(runLiveTest(db.em(), shop.shop.id, BASE_URL))).code).toBe('LIVE_TEST_LIMIT_REACHED');
});

test('eight started at once: exactly five are created, the others refused', async () => {
  const shop = await db.newShop('live-race');
  const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => runLiveTest(db.em(), shop.shop.id, BASE_URL)));
  const answers = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'created' : String((outcome.reason as { code?: string }).code ?? outcome.reason)));
  expect(answers.sort()).toEqual([...Array(3).fill('LIVE_TEST_LIMIT_REACHED'), ...Array(5).fill('created')]);
  expect(await liveTestsOf(shop.shop.id)).toHaveLength(5);
});
