import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { deliveryHeaders, serviceSignature, standardSignature } from '../../src/modules/webhooks/signing';
import { newWebhookSecret } from '../../src/modules/identity/api-keys';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const BODY = '{"id":"evt_1","event":"payment.completed","payment":{"amount":1234}}';

describe('webhook signatures', () => {
  test('X-Service-Signature is lowercase hex HMAC-SHA256 of the body, keyed with the whole secret string', () => {
    const expected = createHmac('sha256', SECRET).update(BODY).digest('hex');
    expect(serviceSignature(SECRET, BODY)).toBe(expected);
    expect(serviceSignature(SECRET, BODY)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('the Standard Webhooks example from the specification verifies', () => {
    // From the Standard Webhooks specification's test vectors.
    const signature = standardSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('the standardwebhooks package verifies our headers for a fresh secret', () => {
    const secret = newWebhookSecret();
    const headers = deliveryHeaders(secret, 'evt_abc', BODY, { test: false });
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(secret).verify(BODY.replace('1234', '1235'), headers)).toThrow();
    expect(headers['x-service-test']).toBeUndefined();
  });

  test('an old timestamp is refused by receivers that check it (replay protection)', () => {
    const secret = newWebhookSecret();
    const headers = deliveryHeaders(secret, 'evt_abc', BODY, { test: false, now: new Date(Date.now() - 10 * 60_000) });
    expect(() => new Webhook(secret).verify(BODY, headers)).toThrow(/too old/);
  });

  test('test deliveries carry X-Service-Test: true', () => {
    expect(deliveryHeaders(newWebhookSecret(), 'evt_t', BODY, { test: true })['x-service-test']).toBe('true');
  });
});
