import { createHash } from 'node:crypto';
import request from 'supertest';
import { SHOPPER_MESSAGES } from '../../../src/modules/checkout/failure-messages';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { ADYEN_3DS_CARD, AdyenStandIn, HOLDER } from '../../support/adyen-stand-in';
import { CARD, checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { adyenSuite } from '../../support/adyen-suite';
import type { TestService } from '../../support/test-service';

/*
 * The 3-D Secure return (docs/acquirers.md, "3-D Secure without third-party scripts"): only the browser the issuer
 * sends back, carrying the single-use token of the return address we gave Adyen, may answer the challenge. A
 * return from anyone else who knows the payment id claims nothing and never reaches Adyen. Adyen refusing the
 * details themselves (a 4xx) is a final failure, not an unknown outcome.
 */

jest.setTimeout(60_000);

const suite = adyenSuite('adyen-3ds-return', { RATE_LIMIT_PER_MINUTE: '1000' });
let adyen: AdyenStandIn;
let service: TestService;
beforeAll(() => ({ adyen, service } = suite));
const { reload } = suite;

/** A payment of a new shop, waiting for its customer to come back from the issuer. */
async function challenged(holder?: string): Promise<{ id: string; session: string; token: string; authenticationUrl: string }> {
  const shop = await service.createShop();
  const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  const card = { number: ADYEN_3DS_CARD, ...CARD, ...(holder ? { nameOnCard: holder } : {}) };
  const answer = await checkoutClient(service.url).run('SubmitCard', { id, card });
  expect(answer.body.data.submitCard).toMatchObject({ status: 'PENDING', stage: 'AUTHENTICATION_REQUIRED' });
  const toIssuer = await request(service.url).get(answer.body.data.submitCard.authenticationUrl);
  const issuerUrl = toIssuer.status === 303 ? toIssuer.headers.location : /action="([^"]+)"/.exec(toIssuer.text)![1].replace(/&#38;/g, '&');
  const session = AdyenStandIn.sessionOf(issuerUrl);
  const sentReturnUrl = new URL(adyen.requestsTo('/payments').find((r) => r.body.reference === id)!.body.returnUrl as string);
  return { id, session, token: sentReturnUrl.searchParams.get('t')!, authenticationUrl: answer.body.data.submitCard.authenticationUrl as string };
}

/** Our path and query of where the issuer sends the customer back (the return address Adyen was given, plus redirectResult). */
function genuineReturn(session: string, outcome: 'pass' | 'fail' | 'reject'): string {
  const back = new URL(adyen.returnAddress(session, outcome));
  return back.pathname + back.search;
}

const detailsFor = (session: string) =>
  adyen.requestsTo('/payments/details').filter((r) => String((r.body.details as { redirectResult?: string })?.redirectResult ?? '').startsWith(`${session}.`));

async function expectStillWaiting(id: string): Promise<void> {
  const payment = await reload(id);
  expect([payment.status, payment.checkoutStage, payment.threeDsReference]).toEqual(['pending', 'authentication_required', expect.any(String)]);
  expect((await checkoutClient(service.url).view(id)).body.data.checkoutPayment).toMatchObject({ status: 'PENDING', stage: 'AUTHENTICATION_REQUIRED', authenticationUrl: `/checkout/${id}/3ds` });
}

test('the return address Adyen gets carries a fresh 256-bit token; the payment keeps only its SHA-256, and only while the challenge is open', async () => {
  const first = await challenged();
  const second = await challenged();
  for (const { token } of [first, second]) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(first.token).not.toBe(second.token);
  const payment = await reload(first.id);
  expect(payment.threeDsReturnHash).toBe(createHash('sha256').update(first.token).digest('hex'));
  const [row] = await service.em().getConnection().execute(`select row_to_json(p)::text as json from "payments" p where "id" = ?`, [first.id]);
  expect(row.json).not.toContain(first.token);

  expect((await request(service.url).get(genuineReturn(first.session, 'pass'))).status).toBe(303);
  expect(await reload(first.id)).toMatchObject({ status: 'completed', threeDsReturnHash: null, threeDsReference: null, threeDsRedirect: null });
});

test('a forged return (no token, a wrong token, a token of another payment) claims nothing and never reaches Adyen; the genuine return then completes the payment', async () => {
  const { id, session, token } = await challenged();
  const other = await challenged();
  const genuine = new URL(genuineReturn(session, 'pass'), 'http://x');
  const redirectResult = genuine.searchParams.get('redirectResult')!;
  const forgedResult = `${other.session}.pass`;
  const forged = [
    `/checkout/${id}/3ds-return?redirectResult=anything`,
    `/checkout/${id}/3ds-return?redirectResult=${encodeURIComponent(redirectResult)}`,
    `/checkout/${id}/3ds-return?t=${'A'.repeat(43)}&redirectResult=${encodeURIComponent(redirectResult)}`,
    `/checkout/${id}/3ds-return?t=${token.slice(0, -1)}&redirectResult=${encodeURIComponent(redirectResult)}`,
    `/checkout/${id}/3ds-return?t=${other.token}&redirectResult=${encodeURIComponent(forgedResult)}`,
    `/checkout/${id}/3ds-return?t=${token}&t=${token}&redirectResult=${encodeURIComponent(redirectResult)}`,
  ];
  for (const path of forged) {
    const answer = await request(service.url).get(path);
    expect([answer.status, answer.headers.location]).toEqual([303, `/checkout/${id}?issuer=returned`]);
  }
  // The issuer's form POST, forged: the body carries a result, the address no token.
  const posted = await request(service.url).post(`/checkout/${id}/3ds-return`).type('form').send({ redirectResult });
  expect(posted.status).toBe(303);

  expect(detailsFor(session)).toHaveLength(0);
  expect(detailsFor(other.session)).toHaveLength(0);
  expect(adyen.requestsTo('/payments/details').filter((r) => (r.body.details as { redirectResult: string }).redirectResult === 'anything')).toHaveLength(0);
  await expectStillWaiting(id);
  await expectStillWaiting(other.id);
  expect(service.logs.filter((l) => l.paymentId === id && String(l.msg).startsWith('3-D Secure return refused'))).toHaveLength(forged.length + 1);

  const back = await request(service.url).get(genuine.pathname + genuine.search);
  expect([back.status, back.headers.location]).toEqual([303, `/checkout/${id}?issuer=returned`]);
  const payment = await reload(id);
  expect([payment.status, payment.threeDsOutcome]).toEqual(['completed', 'challenged']);
  expect(detailsFor(session)).toHaveLength(1);
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(4);
  await expectStillWaiting(other.id);
});

test('the genuine return replayed, at once and afterwards, completes the payment once', async () => {
  const { id, session } = await challenged();
  const path = genuineReturn(session, 'pass');
  const answers = await Promise.all([request(service.url).get(path), request(service.url).get(path), request(service.url).get(path)]);
  answers.push(await request(service.url).get(path));
  for (const answer of answers) expect([answer.status, answer.headers.location]).toEqual([303, `/checkout/${id}?issuer=returned`]);
  expect((await reload(id)).status).toBe('completed');
  expect(detailsFor(session)).toHaveLength(1);
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(4);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(1);
});

test('the issuer coming back by form POST to the return address (its token in the query) is taken', async () => {
  const { id, session, token, authenticationUrl } = await challenged(HOLDER.postRedirect);
  // The POST action's TermUrl is the return address we gave Adyen, token included.
  const page = await request(service.url).get(authenticationUrl);
  expect(page.text).toContain(`/checkout/${id}/3ds-return?t=${token}`);
  const posted = await request(service.url).post(`/checkout/${id}/3ds-return?t=${token}`).type('form').send({ redirectResult: `${session}.fail` });
  expect(posted.status).toBe(303);
  expect(await reload(id)).toMatchObject({ status: 'failed', failureCode: 'authentication_failed', threeDsOutcome: 'failed' });
  expect(detailsFor(session)).toHaveLength(1);
});

test('Adyen refusing the details (422) fails the payment processing_error at once, never leaves it processing', async () => {
  const { id, session } = await challenged();
  const back = await request(service.url).get(genuineReturn(session, 'reject'));
  expect(back.status).toBe(303);
  expect(detailsFor(session)).toHaveLength(1);
  const payment = await reload(id);
  expect([payment.status, payment.checkoutStage, payment.failureCode, payment.threeDsOutcome]).toEqual(['failed', 'finished', 'processing_error', 'challenged']);
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.failed' })).toBe(1);
  expect((await checkoutClient(service.url).view(id)).body.data.checkoutPayment).toMatchObject({
    status: 'FAILED',
    failureCode: 'processing_error',
    failureMessage: SHOPPER_MESSAGES.processing_error,
  });
  // Loading the return again changes nothing.
  await request(service.url).get(genuineReturn(session, 'reject'));
  expect(detailsFor(session)).toHaveLength(1);
});

test('only the browser that submitted the card reaches the issuer: anyone else with the payment id is sent back to the page, and cannot spend the challenge there', async () => {
  const { id, token, authenticationUrl } = await challenged();
  // The way to the issuer is in the card submission's answer only, with the challenge's token.
  expect(authenticationUrl).toBe(`/checkout/${id}/3ds?t=${token}`);
  const other = await challenged();
  for (const path of [`/checkout/${id}/3ds`, `/checkout/${id}/3ds?t=`, `/checkout/${id}/3ds?t=${token.slice(0, -1)}`, `/checkout/${id}/3ds?t=${other.token}`, `/checkout/${id}/3ds?t=${'A'.repeat(500)}`]) {
    const res = await request(service.url).get(path);
    expect([path, res.status, res.headers.location]).toEqual([path, 303, `/checkout/${id}?issuer=elsewhere`]);
  }
  await expectStillWaiting(id);
  const mine = await request(service.url).get(authenticationUrl);
  expect(mine.status).toBe(303);
  expect(mine.headers.location).toMatch(new RegExp(`^${adyen.url}/issuer/3ds\\?session=`));
});
