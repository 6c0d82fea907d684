import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from '../../shared/redis';

/** The outcome of counting one request against a budget, with what the X-RateLimit-* headers show. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time, in seconds, when the current window ends and the budget is full again. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1): Retry-After and the 429 message. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts `points` (default 1) against `key`'s budget; refused when the budget cannot hold them all. */
  consume(key: string, points?: number): Promise<RateDecision>;
}

export interface RateLimiterOptions {
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
  /** Namespace of the counters, e.g. "hcp:rl:key". */
  keyPrefix: string;
  /** Shared counters in Redis; without it the counters live in this process only. */
  redis?: Redis;
}

/**
 * A fixed-window counter per key. With Redis, every instance shares one budget (one INCR+PEXPIRE
 * round trip per request). If Redis fails, each instance falls back to its own in-memory budget of
 * the same size: requests keep flowing, limited per instance (fails open-but-bounded, documented).
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const memory = new RateLimiterMemory({ points: options.points, duration: options.windowSeconds, keyPrefix: options.keyPrefix });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        points: options.points,
        duration: options.windowSeconds,
        keyPrefix: options.keyPrefix,
        insuranceLimiter: memory,
      })
    : memory;
  return {
    async consume(key, points = 1) {
      try {
        return decision(options.points, await limiter.consume(key, points), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(options.points, rejection, false);
        throw rejection;
      }
    },
  };
}

function decision(limit: number, res: RateLimiterRes, allowed: boolean): RateDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
    retryAfterSeconds,
  };
}
