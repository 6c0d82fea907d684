import type { Config } from '../../shared/config';
import { createSlidingWindow } from '../../platform/rate-limit/sliding-window';
import { domainError } from '../../shared/errors';
import type { Redis } from '../../shared/redis';

/**
 * Card-testing defence: fraudsters try stolen card numbers on checkout pages. A decline makes a payment
 * `failed`, so each try costs them a payment; on top of that we limit card submissions per client
 * address and per shop over a sliding window, and after a burst of declines refuse further submissions
 * from that address (or for that shop) until the burst has slid out of the window.
 */
export interface CardTestingGuard {
  /** Throws 429 when this submission must not reach the acquirer. */
  admit(clientAddress: string, shopId: string): Promise<void>;
  recordDecline(clientAddress: string, shopId: string): Promise<void>;
}

export function createCardTestingGuard(limits: Config['checkoutLimits'], redis: Redis | undefined, prefix: string): CardTestingGuard {
  const windowMs = limits.windowSeconds * 1000;
  const submissions = createSlidingWindow(windowMs, `${prefix}ct:sub:`, redis);
  const declines = createSlidingWindow(windowMs, `${prefix}ct:dec:`, redis);
  return {
    async admit(clientAddress, shopId) {
      const [addressDeclines, shopDeclines] = await Promise.all([declines.count(`ip:${clientAddress}`), declines.count(`shop:${shopId}`)]);
      if (addressDeclines >= limits.declinesPerClient || shopDeclines >= limits.declinesPerShop) throw domainError('CHECKOUT_RATE_LIMITED');
      const [byAddress, byShop] = await Promise.all([submissions.hit(`ip:${clientAddress}`), submissions.hit(`shop:${shopId}`)]);
      if (byAddress > limits.submissionsPerClient || byShop > limits.submissionsPerShop) throw domainError('CHECKOUT_RATE_LIMITED');
    },
    async recordDecline(clientAddress, shopId) {
      await Promise.all([declines.hit(`ip:${clientAddress}`), declines.hit(`shop:${shopId}`)]);
    },
  };
}
