import type { Redis } from '../../shared/redis';

/**
 * Counts events per key over the last `windowMs`, sliding (not fixed windows), so a burst cannot hide
 * across a window edge. With Redis every instance shares the counts; if Redis fails, this instance
 * counts alone (bounded per instance, like the API rate limit).
 */
export interface SlidingWindow {
  /** Records one event for `key` and returns how many fall in the window, this one included. */
  hit(key: string): Promise<number>;
  /** How many events for `key` fall in the window, recording nothing. */
  count(key: string): Promise<number>;
}

// One round trip: drop what slid out, count, optionally add, expire the key with the window.
const SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('ZCARD', KEYS[1])`;

export function createSlidingWindow(windowMs: number, keyPrefix: string, redis?: Redis): SlidingWindow {
  const memory = memoryWindow(windowMs);
  const run = async (key: string, add: boolean): Promise<number> => {
    if (!redis) return add ? memory.hit(key) : memory.count(key);
    try {
      const member = `${Date.now()}-${Math.random()}`;
      return Number(await redis.eval(SCRIPT, 1, keyPrefix + key, Date.now(), windowMs, add ? '1' : '0', member));
    } catch {
      return add ? memory.hit(key) : memory.count(key);
    }
  };
  return { hit: (key) => run(key, true), count: (key) => run(key, false) };
}

function memoryWindow(windowMs: number): SlidingWindow {
  const events = new Map<string, number[]>();
  const recent = (key: string) => {
    const since = Date.now() - windowMs;
    const kept = (events.get(key) ?? []).filter((t) => t > since);
    if (kept.length === 0) events.delete(key);
    else events.set(key, kept);
    return kept;
  };
  return {
    async hit(key) {
      const kept = recent(key);
      kept.push(Date.now());
      events.set(key, kept);
      return kept.length;
    },
    async count(key) {
      return recent(key).length;
    },
  };
}
