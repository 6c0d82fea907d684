import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { signatureValid } from '../../src/platform/processor/adyen/notifications';

/**
 * Adyen's own known answers (test/fixtures/adyen/hmac-vectors.json, from the test suites of Adyen's API
 * libraries): our notification check accepts each published signature, and refuses it once one character
 * of the signature, of a signed field or of the key changes.
 */
interface Vector {
  name: string;
  publishedIn: { repository: string; path: string };
  hmacKey: string;
  signedData: string;
  item: Record<string, any> & { amount: { value: number | string; currency: string }; additionalData: { hmacSignature: string } };
}

const VECTORS: Vector[] = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/adyen/hmac-vectors.json'), 'utf8')).vectors;
const cases = VECTORS.map((v) => [v.name, v] as const);

/** The same text with its character at `at` replaced by another one of the same kind (letter, digit or other). */
function oneCharacterChanged(text: string, at = 0): string {
  const c = text[at];
  const other = /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : /[A-Z]/.test(c) ? (c === 'Z' ? 'A' : String.fromCharCode(c.charCodeAt(0) + 1)) : /[a-z]/.test(c) ? (c === 'z' ? 'a' : String.fromCharCode(c.charCodeAt(0) + 1)) : c === '/' ? '+' : '/';
  return text.slice(0, at) + other + text.slice(at + 1);
}

const withSignature = (item: Vector['item'], hmacSignature: string) => ({ ...item, additionalData: { ...item.additionalData, hmacSignature } });

test('the vectors are where the README says, several of them, each naming where Adyen published it', () => {
  expect(VECTORS.length).toBeGreaterThanOrEqual(5);
  for (const v of VECTORS) {
    expect(v.publishedIn.repository).toMatch(/^https:\/\/github\.com\/Adyen\/adyen-[a-z]+-api-library$/);
    expect(v.publishedIn.path).not.toBe('');
    expect(v.hmacKey).toMatch(/^[0-9A-F]{64}$/);
  }
});

test.each(cases)('%s: the published signature is HMAC-SHA256 of the published signed text (checked without the library)', (_name, v) => {
  expect(createHmac('sha256', Buffer.from(v.hmacKey, 'hex')).update(v.signedData, 'utf8').digest('base64')).toBe(v.item.additionalData.hmacSignature);
  const { pspReference, originalReference, merchantAccountCode, merchantReference, amount, eventCode, success } = v.item;
  expect([pspReference, originalReference, merchantAccountCode, merchantReference, amount.value, amount.currency, eventCode, success].map((f) => f ?? '').join(':')).toBe(v.signedData);
});

test.each(cases)('%s: signatureValid accepts it', (_name, v) => {
  expect(signatureValid(v.item as never, v.hmacKey)).toBe(true);
});

test.each(cases)('%s: one character changed in the signature is refused, wherever it is', (_name, v) => {
  const signature = v.item.additionalData.hmacSignature;
  // The last character before the padding carries unused bits: changing them alone changes no byte, so it is left out.
  for (let at = 0; at < signature.replace(/=+$/, '').length - 1; at++) {
    expect(signatureValid(withSignature(v.item, oneCharacterChanged(signature, at)) as never, v.hmacKey)).toBe(false);
  }
});

test.each(cases)('%s: one character changed in any signed field, or in the key, is refused', (_name, v) => {
  const item = v.item;
  const changed: Record<string, unknown>[] = [
    { pspReference: oneCharacterChanged(item.pspReference) },
    { merchantAccountCode: oneCharacterChanged(item.merchantAccountCode) },
    { merchantReference: oneCharacterChanged(item.merchantReference, item.merchantReference.length - 1) },
    { amount: { ...item.amount, value: oneCharacterChanged(String(item.amount.value)) } },
    { amount: { ...item.amount, currency: oneCharacterChanged(item.amount.currency) } },
    { eventCode: oneCharacterChanged(item.eventCode) },
    { success: item.success === 'true' ? 'True' : 'False' },
  ];
  if (item.originalReference) changed.push({ originalReference: oneCharacterChanged(item.originalReference) });
  for (const change of changed) expect(signatureValid({ ...item, ...change } as never, v.hmacKey)).toBe(false);
  expect(signatureValid(item as never, oneCharacterChanged(v.hmacKey))).toBe(false);
  expect(signatureValid(item as never, oneCharacterChanged(v.hmacKey, 63))).toBe(false);
});

test.each(cases)('%s: fields outside the signed text (event date, reason, additional data) do not change it', (_name, v) => {
  const item = { ...v.item, eventDate: '2030-01-01T00:00:00+00:00', reason: 'anything', additionalData: { ...v.item.additionalData, extra: 'x' } };
  expect(signatureValid(item as never, v.hmacKey)).toBe(true);
});
