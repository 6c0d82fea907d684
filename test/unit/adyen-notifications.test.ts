import fs from 'node:fs';
import path from 'node:path';
import HmacValidator from '@adyen/api-library/lib/src/utils/hmacValidator';
import { basicAuthMatches, EVENT_READINGS, eventOf, notificationItems, placeOf, readItem, signatureValid } from '../../src/platform/processor/adyen/notifications';
import { failureCodeOfReasonText, failureCodeOfRefusal, REFUSAL_REASONS } from '../../src/platform/processor/adyen/refusal-reasons';

const KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const credentials = { username: 'adyen', password: 's3cret', hmacKey: KEY };
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

function item(fields: Record<string, unknown> = {}) {
  const it: any = {
    amount: { currency: 'EUR', value: 1130 }, eventCode: 'AUTHORISATION', eventDate: '2024-01-01T01:00:00+01:00', merchantAccountCode: 'ShopECOM',
    merchantReference: 'pay_1', pspReference: '7914073381342284', success: 'true', additionalData: {}, ...fields,
  };
  it.additionalData.hmacSignature = new HmacValidator().calculateHmac(it, KEY);
  return it;
}

describe('Adyen notifications', () => {
  test('basic auth: only the exact user and password pass', () => {
    expect(basicAuthMatches(basic('adyen:s3cret'), credentials)).toBe(true);
    const exact = basic('adyen:s3cret');
    for (const header of [basic('adyen:s3cre'), basic('adyen:s3cretx'), basic('Adyen:s3cret'), basic(':'), 'Bearer x', undefined, `Basic ${'!'.repeat(8)}`, `x${exact}`, `${exact} x`]) {
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

  test('only a standard notification body is read; its items are read one by one', () => {
    expect(notificationItems({ notificationItems: [{ NotificationRequestItem: item() }] })).toHaveLength(1);
    const good = { NotificationRequestItem: item() };
    for (const body of [null, {}, { notificationItems: [] }, { notificationItems: [{}] }, { notificationItems: [{ NotificationRequestItem: 'x' }] },
      { notificationItems: [good, null] }, { notificationItems: [good, { NotificationRequestItem: null }] }, { notificationItems: [good, { NotificationRequestItem: [] }] }]) {
      expect(notificationItems(body)).toBeNull();
    }
    // An item missing fields is still an item: it is kept as rejected, and does not refuse its batch.
    expect(notificationItems({ notificationItems: [{ NotificationRequestItem: { eventCode: 'X' } }] })).toHaveLength(1);
  });

  test('an item without amount is signed over empty amount fields, as Adyen signs it; a forged one is not', () => {
    const { amount: _amount, ...withoutAmount } = item();
    const signed = { ...withoutAmount, additionalData: { hmacSignature: new HmacValidator().calculateHmac({ ...withoutAmount, amount: {} } as never, KEY) } };
    expect(signatureValid(signed, KEY)).toBe(true);
    expect(signatureValid({ ...signed, pspReference: 'X' }, KEY)).toBe(false);
  });

  test('each field is checked: a malformed item is rejected, keyed by its content when it has no reference', () => {
    expect(readItem(item())).toEqual({
      kept: {
        pspReference: '7914073381342284', eventCode: 'AUTHORISATION', success: true, merchantReference: 'pay_1', originalReference: null, amountValue: 1130, currency: 'EUR', reason: null,
        eventDate: new Date('2024-01-01T00:00:00.000Z'), place: 0, orderKey: '7914073381342284',
      },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: undefined }, 'amount.value, amount.currency'],
      [{ amount: { value: 1.5, currency: 'EUR' } }, 'amount.value'],
      [{ amount: { value: -1, currency: 'EUR' } }, 'amount.value'],
      [{ amount: { value: 100, currency: 'eur' } }, 'amount.currency'],
      [{ eventCode: 'authorisation' }, 'eventCode'],
      [{ success: 'yes' }, 'success'],
      [{ merchantReference: 12 }, 'merchantReference'],
      [{ pspReference: '' }, 'pspReference'],
      [{ pspReference: 7914073381342284 }, 'pspReference'],
      [{ pspReference: 'ABC DEF' }, 'pspReference'],
      [{ pspReference: 'A'.repeat(65) }, 'pspReference'],
      [{ eventCode: 'AUTHORISATION x' }, 'eventCode'],
      [{ eventCode: 'x AUTHORISATION' }, 'eventCode'],
      [{ amount: { value: 100, currency: 'EUR1' } }, 'amount.currency'],
      [{ amount: { value: 100, currency: '1EUR' } }, 'amount.currency'],
    ];
    for (const [change, problem] of cases) {
      const read = readItem({ ...item(), ...change });
      expect(read).toMatchObject({ rejected: { problem: `malformed item: ${problem} missing or invalid` } });
    }
    // Zero is an amount (REPORT_AVAILABLE carries one), and a merchant reference may be absent.
    expect(readItem({ ...item(), amount: { value: 0, currency: 'EUR' }, merchantReference: undefined })).toMatchObject({ kept: { amountValue: 0, merchantReference: '' } });
    expect(readItem({ ...item(), pspReference: 'A'.repeat(64) })).toHaveProperty('kept');
    // The event code is kept as given when it can be read, else as UNKNOWN.
    expect(readItem({ ...item(), amount: undefined })).toMatchObject({ rejected: { eventCode: 'AUTHORISATION', pspReference: '7914073381342284', success: true } });
    expect(readItem({ ...item(), eventCode: 'lower' })).toMatchObject({ rejected: { eventCode: 'UNKNOWN' } });
    const noReference = readItem({ ...item(), pspReference: undefined }) as { rejected: { pspReference: string } };
    expect(noReference.rejected.pspReference).toMatch(/^malformed:[0-9a-f]{32}$/);
    expect((readItem({ ...item(), pspReference: undefined }) as { rejected: { pspReference: string } }).rejected.pspReference).toBe(noReference.rejected.pspReference);
  });

  test("an item is ordered by Adyen's eventDate and its place in the payment's life, and belongs to the payment its originalReference names", () => {
    const kept = (fields: Record<string, unknown> = {}) => (readItem(item(fields)) as { kept: Parameters<typeof eventOf>[0] }).kept;
    expect(kept({ eventDate: '2019-05-06T17:15:34.121+02:00' }).eventDate).toEqual(new Date('2019-05-06T15:15:34.121Z'));
    for (const eventDate of [undefined, 'yesterday', 42, 'x'.repeat(41)]) expect(kept({ eventDate }).eventDate).toBeNull();
    expect(kept({ eventCode: 'REFUND', originalReference: 'PAYMENT-PSP' }).orderKey).toBe('PAYMENT-PSP');
    expect(kept({ eventCode: 'AUTHORISATION' }).orderKey).toBe('7914073381342284');
    const places = ['AUTHORISATION', 'REFUND', 'REFUNDED_REVERSED', 'NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_LOST', 'PREARBITRATION_WON', 'REPORT_AVAILABLE'].map(placeOf);
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(new Set(places).size).toBe(places.length);
    expect(placeOf('REFUND_FAILED')).toBe(placeOf('REFUNDED_REVERSED'));
  });

  test("items in the port's terms, with the money they name", () => {
    const kept = (fields: Record<string, unknown> = {}) => (readItem(item(fields)) as { kept: Parameters<typeof eventOf>[0] }).kept;
    const money = { amount: 1130, currency: 'EUR' };
    expect(eventOf(kept())).toEqual({ kind: 'authorization', paymentId: 'pay_1', money, outcome: { kind: 'approved', reference: '7914073381342284', threeDs: null } });
    expect(eventOf(kept({ success: 'false', reason: 'CVC Declined' }))).toMatchObject({ outcome: { kind: 'declined', code: 'incorrect_cvc' } });
    expect(eventOf(kept({ eventCode: 'REFUND', merchantReference: 'ref_1' }))).toEqual({ kind: 'refund', refundId: 'ref_1', money, outcome: { kind: 'refunded', reference: '7914073381342284' } });
    expect(eventOf(kept({ eventCode: 'REFUND_FAILED', merchantReference: 'ref_1' }))).toEqual({ kind: 'refund', refundId: 'ref_1', money, outcome: { kind: 'declined', reason: 'refund_failed' } });
    expect(eventOf(kept({ eventCode: 'REFUND_FAILED', success: 'true', reason: 'Refund Failed: scheme' }))).toMatchObject({ outcome: { kind: 'declined', reason: 'Refund Failed: scheme' } });
    for (const eventCode of ['CANCELLATION', 'CANCEL_OR_REFUND']) {
      expect(eventOf(kept({ eventCode }))).toEqual({ kind: 'cancellation', paymentId: 'pay_1', cancelled: true });
      expect(eventOf(kept({ eventCode, success: 'false' }))).toEqual({ kind: 'cancellation', paymentId: 'pay_1', cancelled: false });
    }
    expect(eventOf(kept({ eventCode: 'REFUNDED_REVERSED', merchantReference: 'ref_1' }))).toEqual({ kind: 'refund_reversed', refundId: 'ref_1', money });
    expect(eventOf(kept({ eventCode: 'CHARGEBACK', reason: 'dispute' }))).toEqual({
      kind: 'dispute', step: 'chargeBack', paymentId: 'pay_1', reference: '7914073381342284', money, reason: 'dispute', occurredAt: new Date('2024-01-01T00:00:00.000Z'),
    });
    const steps: Record<string, string> = {
      NOTIFICATION_OF_CHARGEBACK: 'open', REQUEST_FOR_INFORMATION: 'open', CHARGEBACK_REVERSED: 'reverse', SECOND_CHARGEBACK: 'secondChargeback',
      PREARBITRATION_WON: 'win', SCHEME_ARBITRATION_WON: 'win', PREARBITRATION_LOST: 'lose', SCHEME_ARBITRATION_LOST: 'lose',
      DISPUTE_DEFENSE_PERIOD_ENDED: 'lose', ISSUER_RESPONSE_TIMEFRAME_EXPIRED: 'close',
    };
    for (const [eventCode, step] of Object.entries(steps)) expect(eventOf(kept({ eventCode }))).toMatchObject({ kind: 'dispute', step });
    expect(eventOf(kept({ eventCode: 'CHARGEBACK', success: 'false' }))).toEqual({ kind: 'other', name: 'CHARGEBACK' });
    expect(eventOf(kept({ eventCode: 'CAPTURE' }))).toEqual({ kind: 'other', name: 'CAPTURE' });
    expect(eventOf(kept({ eventCode: 'CONSTRUCTOR' }))).toEqual({ kind: 'other', name: 'CONSTRUCTOR' });
  });

  test("docs/acquirers.md says what every event code of Adyen's Webhooks-v1 definition does to money", () => {
    const root = path.join(__dirname, '../..');
    const definition = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/adyen/Webhooks-v1.json'), 'utf8'));
    const docs = fs.readFileSync(path.join(root, 'docs/acquirers.md'), 'utf8');
    const table = docs.slice(docs.indexOf('### Every event code'), docs.indexOf('### Disputes'));
    const rows = table.split('\n').filter((line) => line.startsWith('| ')).map((line) => line.split('|')[1]);
    const documented = new Set(rows.flatMap((cell) => cell.split(',').map((code) => code.trim())));
    const codes = Object.keys(definition.webhooks).map((key) => key.slice(1));
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
    // And every code we act on is one Adyen defines.
    expect(Object.keys(EVENT_READINGS).filter((code) => !codes.includes(code))).toEqual([]);
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

describe('the refusal table, as docs/acquirers.md publishes it', () => {
  const docs = fs.readFileSync(path.join(__dirname, '../../docs/acquirers.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Refusal reasons'), docs.indexOf('## 3-D Secure'));
  /** `| 2, 3, 5, 32-37 | names | \`card_declined\` |` -> each code with its failure code. */
  const documented = new Map<string, string>();
  for (const line of section.split('\n').filter((l) => /^\| \d/.test(l))) {
    const [codes, , failure] = line.split('|').slice(1).map((cell) => cell.trim());
    for (const part of codes.split(',').map((p) => p.trim())) {
      const [from, to = from] = part.split('-').map(Number);
      for (let code = from; code <= to; code++) documented.set(String(code), failure.replace(/`/g, ''));
    }
  }

  test('every code Adyen lists maps onto the documented failure code, by code and by its text', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(REFUSAL_REASONS).sort());
    for (const [code, failure] of documented) {
      expect([code, failureCodeOfRefusal(code)]).toEqual([code, failure]);
      // The text Adyen sends in notifications (and in `refusalReason`) finds the same code, in any case, with a suffix.
      const name = REFUSAL_REASONS[code].adyen;
      expect(name.length).toBeGreaterThan(2);
      expect([name, failureCodeOfReasonText(` ${name.toUpperCase()}: detail `)]).toEqual([name, failure]);
      expect([name, failureCodeOfRefusal(undefined, name)]).toEqual([name, failure]);
    }
    // The names are Adyen's own: a few as its refusal-reasons page spells them.
    expect(['Refused', 'Referral', 'Blocked Card', 'Not enough balance', 'CVC Declined', 'FRAUD-CANCELLED'].map((n) => failureCodeOfReasonText(n))).toEqual(
      ['card_declined', 'card_declined', 'card_declined', 'insufficient_funds', 'incorrect_cvc', 'fraudulent'],
    );
    expect(failureCodeOfReasonText(undefined)).toBe('card_declined');
    expect(failureCodeOfRefusal('999', 'Expired Card')).toBe('expired_card');
  });
});
