import { deliveryHeaders, standardSignature } from '../../src/modules/webhooks/signing';
import { outcomeAfterAttempt, retryAfterMs, retryDelayMs } from '../../src/modules/webhooks/retry-schedule';
import { isPublicAddress, parseWebhookUrl } from '../../src/modules/webhooks/webhook-url';

/** The webhook rules at their edges: exact headers, Retry-After forms, and URL parts the examples skip. */
const NOW = new Date('2026-11-23T10:00:00Z');

describe('delivery headers', () => {
  test('every header, exactly; the timestamp is whole seconds rounded down', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"a":1}';
    const now = new Date(1_700_000_000_999);
    expect(deliveryHeaders(secret, 'evt_1', body, { test: false, now })).toEqual({
      'content-type': 'application/json',
      'user-agent': 'HostedCheckout-Webhooks/1',
      'x-service-signature': expect.stringMatching(/^[0-9a-f]{64}$/),
      'webhook-id': 'evt_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': standardSignature(secret, 'evt_1', 1_700_000_000, body),
    });
  });

  test('a secret without the whsec_ prefix is the base64 key itself', () => {
    const withPrefix = standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1614265330, '{}');
    expect(standardSignature('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1614265330, '{}')).toBe(withPrefix);
  });
});

describe('Retry-After', () => {
  test('a date in the past asks for no wait; a date without a day or month name is not an HTTP date', () => {
    expect(retryAfterMs('Mon, 23 Nov 2026 09:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs('2026-11-23 10:30:00', NOW)).toBeNull();
    expect(retryAfterMs('MON, 23 NOV 2026 10:30:00 GMT', NOW)).toBe(1_800_000);
  });

  test('an unreadable Retry-After on a 503 leaves the back-off as it is', () => {
    expect(retryDelayMs({ baseDelayMs: 1000, maxAttempts: 5 }, 2, { status: 503, retryAfter: 'soon' }, NOW, () => 0)).toBe(2000);
    expect(retryDelayMs({ baseDelayMs: 1000, maxAttempts: 5 }, 2, { status: null, retryAfter: '600' }, NOW, () => 0)).toBe(2000);
  });

  test('the wait after the last-but-one attempt is still scheduled', () => {
    const policy = { baseDelayMs: 1000, maxAttempts: 3 };
    expect(outcomeAfterAttempt(policy, 2, { status: 503, retryAfter: '5' }, false, NOW, () => 0)).toEqual({ move: 'retry', status: 'pending', nextAttemptAt: new Date(NOW.getTime() + 5000) });
  });
});

describe('webhook URL parts', () => {
  const code = (url: string) => {
    try {
      parseWebhookUrl(url, { allowPrivateNetworks: false });
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code;
    }
  };

  test('a password without a user name is still credentials', () => {
    expect(code('https://:secret@hooks.example.com/')).toBe('WEBHOOK_URL_INVALID');
  });

  test('only a trailing dot is dropped from a name, and only .localhost names are local', () => {
    expect(code('https://hooks.localhost.example.com/')).toBe('ok');
    expect(code('https://mylocalhost/')).toBe('ok');
    expect(code('https://localhost.example.com/')).toBe('ok');
  });

  test('an address in brackets is read as the address', () => {
    expect(isPublicAddress('[2606:4700::1111]')).toBe(true);
    expect(isPublicAddress('[::1]')).toBe(false);
  });
});
