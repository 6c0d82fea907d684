import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { LIVE_TEST_AMOUNT_CENTS, LIVE_TESTS_PER_SHOP_PER_DAY, SUPPORTED_CURRENCY } from '../../shared/limits';
import { Payment } from './payment.entity';
import { countLiveTestsToday, lockShopLiveTests } from './payment-store';

/** How many live tests a shop has run today and may still run. */
export interface LiveTestAllowance {
  dailyLimit: number;
  usedToday: number;
  remainingToday: number;
}

/** Where the seller comes back to after paying a live test: the dashboard screen it was started from. */
export const liveTestReturnUrl = (baseUrl: string) => `${baseUrl}/dashboard/developers`;

export async function liveTestAllowance(em: EntityManager, shopId: string): Promise<LiveTestAllowance> {
  const usedToday = await countLiveTestsToday(em, shopId);
  return { dailyLimit: LIVE_TESTS_PER_SHOP_PER_DAY, usedToday, remainingToday: Math.max(0, LIVE_TESTS_PER_SHOP_PER_DAY - usedToday) };
}

/**
 * A live test for the seller's own shop (docs/dashboard.md, "Live test"): a pending payment of exactly
 * LIVE_TEST_AMOUNT_CENTS marked `test`, which the seller pays on the real checkout page with their own card;
 * the refund jobs refund it once it completes, fee waived. Nothing of it comes from the caller: not the amount,
 * not the shop (the session's), not the flag, so `test` cannot make a fee-free payment of any other amount.
 * At most LIVE_TESTS_PER_SHOP_PER_DAY per UTC day: a per-shop advisory lock makes the count and the insert one
 * step, so tests started at once cannot both take the last one (and no payment row or shop row is locked).
 */
export async function runLiveTest(em: EntityManager, shopId: string, baseUrl: string): Promise<Payment> {
  return em.transactional(async (tx) => {
    await lockShopLiveTests(tx, shopId);
    if ((await countLiveTestsToday(tx, shopId)) >= LIVE_TESTS_PER_SHOP_PER_DAY) throw domainError('LIVE_TEST_LIMIT_REACHED', LIVE_TESTS_PER_SHOP_PER_DAY);
    return tx.create(Payment, {
      shop: shopId,
      amount: LIVE_TEST_AMOUNT_CENTS,
      currency: SUPPORTED_CURRENCY,
      returnUrl: liveTestReturnUrl(baseUrl),
      test: true,
    });
  });
}
