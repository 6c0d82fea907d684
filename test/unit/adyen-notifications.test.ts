import { hmacValidator } from '@adyen/api-library';
import { basicAuthMatches, eventOf, notificationItems, signatureValid } from '../../src/processor/adyen/notifications';
import { failureCodeOfReasonText, failureCodeOfRefusal } from '../../src/processor/adyen/refusal-reasons';

const KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const credentials = { username: 'adyen', password: 's3cret', hmacKey: KEY };
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

function item(fields: Record<string, unknown> = {}) {
  const it: any = {
    amount: { currency: 'EUR', value: 1130 }, eventCode: 'AUTHORISATION', eventDate: '2024-01-01T01:00:00+01:00', merchantAccountCode: 'ShopECOM',
    merchantReference: 'pay_1', pspReference: '7914073381342284', success: 'true', additionalData: {}, ...fields,
  };
  it.additionalData.hmacSignature = new hmacValidator().calculateHmac(it, KEY);
  return it;
}

describe('Adyen notifications', () => {
  test('basic auth: only the exact user and password pass', () => {
    expect(basicAuthMatches(basic('adyen:s3cret'), credentials)).toBe(true);
    for (const header of [basic('adyen:s3cre'), basic('adyen:s3cretx'), basic('Adyen:s3cret'), basic(':'), 'Bearer x', undefined, `Basic ${'!'.repeat(8)}`]) {
      expect(basicAuthMatches(header, credentials)).toBe(false);
    }
  });

  test("the HMAC is Adyen's (the library's worked example) and covers every signed field", () => {
    // Adyen's documented example: this item with this key signs to this value.
    const documented = {
      pspReference: '7914073381342284', merchantAccountCode: 'TestMerchant', merchantReference: 'TestPayment-1407325143704', amount: { value: 1130, currency: 'EUR' },
      eventCode: 'AUTHORISATION', success: 'true', additionalData: { hmacSignature: 'coqCmt/IZ4E3CzPvMY8zTjQVL5hYJUiBRg8UU+iCWo0=' },
    };
    expect(signatureValid(documented as never, KEY)).toBe(true);
    const good = item();
    expect(signatureValid(good, KEY)).toBe(true);
    for (const change of [{ pspReference: 'X' }, { merchantReference: 'pay_2' }, { success: 'false' }, { eventCode: 'REFUND' }, { merchantAccountCode: 'Other' }]) {
      expect(signatureValid({ ...good, ...change }, KEY)).toBe(false);
    }
    expect(signatureValid({ ...good, amount: { currency: 'EUR', value: 1 } }, KEY)).toBe(false);
    expect(signatureValid({ ...good, additionalData: {} }, KEY)).toBe(false);
    expect(signatureValid(good, 'AB'.repeat(32))).toBe(false);
  });

  test('only a standard notification body is read', () => {
    expect(notificationItems({ notificationItems: [{ NotificationRequestItem: item() }] })).toHaveLength(1);
    for (const body of [null, {}, { notificationItems: [] }, { notificationItems: [{}] }, { notificationItems: [{ NotificationRequestItem: { eventCode: 'X' } }] }]) {
      expect(notificationItems(body)).toBeNull();
    }
  });

  test('items in the port\'s terms', () => {
    expect(eventOf(item())).toEqual({ kind: 'authorization', paymentId: 'pay_1', outcome: { kind: 'approved', reference: '7914073381342284', threeDs: null } });
    expect(eventOf(item({ success: 'false', reason: 'CVC Declined' }))).toMatchObject({ outcome: { kind: 'declined', code: 'incorrect_cvc' } });
    expect(eventOf(item({ eventCode: 'REFUND', merchantReference: 'ref_1' }))).toEqual({ kind: 'refund', refundId: 'ref_1', outcome: { kind: 'refunded', reference: '7914073381342284' } });
    expect(eventOf(item({ eventCode: 'REFUND_FAILED', merchantReference: 'ref_1' }))).toMatchObject({ outcome: { kind: 'declined', reason: 'refund_failed' } });
    expect(eventOf(item({ eventCode: 'CHARGEBACK', reason: 'dispute' }))).toEqual({ kind: 'chargeback', paymentId: 'pay_1', reference: '7914073381342284', amount: 1130, currency: 'EUR', reason: 'dispute' });
    expect(eventOf(item({ eventCode: 'CAPTURE' }))).toEqual({ kind: 'other', name: 'CAPTURE' });
  });

  test('refusal reasons: by code, by text, and an unknown one is a plain decline', () => {
    expect(failureCodeOfRefusal('12')).toBe('insufficient_funds');
    expect(failureCodeOfRefusal('999')).toBe('card_declined');
    expect(failureCodeOfRefusal(undefined)).toBe('card_declined');
    expect(failureCodeOfReasonText('Expired Card')).toBe('expired_card');
    expect(failureCodeOfReasonText('FRAUD-CANCELLED')).toBe('fraudulent');
    expect(failureCodeOfReasonText('something new')).toBe('card_declined');
  });
});
