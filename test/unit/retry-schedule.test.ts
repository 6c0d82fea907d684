import { JITTER, nominalSchedule, outcomeAfterAttempt, retryAfterMs, retryDelayMs } from '../../src/modules/webhooks/retry-schedule';
import { loadConfig } from '../../src/shared/config';

const config = loadConfig({}).webhooks;
const DEFAULT = { baseDelayMs: config.retryBaseDelayMs, maxAttempts: config.maxAttempts };
const HOUR = 3_600_000;
const noAnswer = { status: 500, retryAfter: null };

describe('retry schedule', () => {
  test('the default schedule: 16 attempts, doubling from 1 minute to a 12-hour cap, lasting at least 3 days', () => {
    const delays = nominalSchedule(DEFAULT);
    expect(delays).toHaveLength(15);
    expect(delays.slice(0, 3)).toEqual([60_000, 120_000, 240_000]);
    expect(delays.at(-1)).toBe(12 * HOUR);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(72 * HOUR);
    expect(total).toBe((1023 + 5 * 720) * 60_000); // 77 h 3 min
  });

  test('jitter only lengthens a delay, by at most 20%', () => {
    expect(retryDelayMs(DEFAULT, 3, noAnswer, new Date(), () => 0)).toBe(240_000);
    expect(retryDelayMs(DEFAULT, 3, noAnswer, new Date(), () => 0.999999)).toBeCloseTo(240_000 * (1 + JITTER), -1);
  });

  test('Retry-After on 429 and 503 is honoured when longer, capped at the longest step', () => {
    const now = new Date('2026-11-23T10:00:00Z');
    expect(retryDelayMs(DEFAULT, 1, { status: 503, retryAfter: '600' }, now, () => 0)).toBe(600_000);
    expect(retryDelayMs(DEFAULT, 1, { status: 429, retryAfter: 'Mon, 23 Nov 2026 10:30:00 GMT' }, now, () => 0)).toBe(1_800_000);
    expect(retryDelayMs(DEFAULT, 1, { status: 429, retryAfter: '1' }, now, () => 0)).toBe(60_000);
    expect(retryDelayMs(DEFAULT, 1, { status: 503, retryAfter: String(30 * 24 * 3600) }, now, () => 0)).toBe(12 * HOUR);
    expect(retryDelayMs(DEFAULT, 1, { status: 500, retryAfter: '600' }, now, () => 0)).toBe(60_000);
  });

  test.each([['120', 120_000], [' 5 ', 5_000], ['soon', null], ['1.5', null], ['', null], [null, null]])('Retry-After %j -> %j ms', (header, ms) => {
    expect(retryAfterMs(header, new Date())).toBe(ms);
  });

  test('only 200 delivers; the last attempt of a schedule fails it; a final attempt fails at once', () => {
    const policy = { baseDelayMs: 1000, maxAttempts: 3 };
    const now = new Date('2026-11-23T10:00:00Z');
    expect(outcomeAfterAttempt(policy, 1, { status: 200, retryAfter: null }, false, now)).toEqual({ move: 'deliver', status: 'delivered', at: now });
    expect(outcomeAfterAttempt(policy, 1, { status: 201, retryAfter: null }, false, now, () => 0)).toEqual({ move: 'retry', status: 'pending', nextAttemptAt: new Date(now.getTime() + 1000) });
    expect(outcomeAfterAttempt(policy, 2, { status: 302, retryAfter: null }, false, now, () => 0)).toEqual({ move: 'retry', status: 'pending', nextAttemptAt: new Date(now.getTime() + 2000) });
    expect(outcomeAfterAttempt(policy, 3, { status: null, retryAfter: null }, false, now)).toEqual({ move: 'giveUp', status: 'failed', at: now });
    expect(outcomeAfterAttempt(policy, 1, { status: 500, retryAfter: null }, true, now)).toEqual({ move: 'giveUp', status: 'failed', at: now });
  });
});
