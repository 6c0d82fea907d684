import request from 'supertest';
import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { SHOPPER_FAILURE_OF, SHOPPER_MESSAGES } from '../../../src/modules/checkout/failure-messages';
import { REFUSAL_REASONS } from '../../../src/platform/processor/adyen/refusal-reasons';
import { adminClient, eventually } from '../../support/admin-client';
import { ADYEN_3DS_CARD, AdyenStandIn, HOLDER, LOSE_REFUND_ANSWER_CENTS } from '../../support/adyen-stand-in';
import { checkoutClient, CARD } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { adyenSuite } from '../../support/adyen-suite';
import type { TestService } from '../../support/test-service';
import { sleep } from '../../support/webhook-support';

jest.setTimeout(60_000);

const VISA = '4111111111111111';
/** The payments and sellers this file made (the run's database is shared with other files). */
const ours = new Set<string>();
// Reconciliation sweeps often here, so a test would see it settle something it must not.
const suite = adyenSuite('adyen', { RECONCILE_AFTER_MS: '200', RECONCILE_INTERVAL_MS: '100', REFUND_PROCESSING_TIMEOUT_MS: '300', REFUND_SWEEP_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '1000' });
let adyen: AdyenStandIn;
let service: TestService;
beforeAll(() => ({ adyen, service } = suite));
const { applyNotifications, reload } = suite;

async function newPayment(amount: number = VALID_PAYMENT.amount) {
  const shop = await service.createShop();
  const id = (await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount })).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  return { shop, id };
}


async function journalOf(id: string): Promise<string[]> {
  return (await service.em().find(LedgerEntry, { paymentId: id })).map((e) => `${e.account} ${e.kind} ${e.amount}`).sort();
}

async function ourViolations() {
  return (await checkLedger(service.em())).violations.filter((v) => ours.has(v.subject));
}

test('the start log says Adyen runs; the simulator is not the processor', () => {
  expect(service.logs.some((l) => String(l.msg).startsWith('card processor: Adyen (test environment'))).toBe(true);
});

test('an approved card completes with its ledger journal and webhook event; the request met Adyen\'s contract', async () => {
  const { id, shop } = await newPayment();
  const answer = await checkoutClient(service.url, { 'User-Agent': 'Mozilla/5.0 test', Accept: 'application/json, */*' }).run('SubmitCard', {
    id,
    card: { number: VISA, ...CARD, nameOnCard: 'Ann Example' },
    browser: { language: 'en-GB', colorDepth: 24, screenHeight: 900, screenWidth: 1440, timeZoneOffset: -60 },
  });
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data.submitCard.status).toBe('COMPLETED');
  const payment = await reload(id);
  expect(payment.processorReference).toBe(adyen.authorisations.get(id)!.pspReference);
  expect(await journalOf(id)).toHaveLength(4);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(1);
  expect((await sellerClient(service.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');

  const sent = adyen.requestsTo('/payments').find((r) => r.body.reference === id)!;
  expect(sent.idempotencyKey).toBe(id);
  expect(sent.body).toMatchObject({
    merchantAccount: adyen.credentials.merchantAccount,
    reference: id,
    amount: { currency: 'USD', value: VALID_PAYMENT.amount },
    paymentMethod: { type: 'scheme', number: VISA, expiryMonth: String(CARD.expMonth).padStart(2, '0'), expiryYear: String(CARD.expYear), cvc: CARD.securityCode, holderName: 'Ann Example' },
    shopperInteraction: 'Ecommerce',
    channel: 'Web',
    // The return address carries the single-use token of a 3-D Secure challenge (docs/acquirers.md).
    returnUrl: expect.stringMatching(new RegExp(`^https://pay\\.example\\.test/checkout/${id}/3ds-return\\?t=[A-Za-z0-9_-]{43}$`)),
    browserInfo: { userAgent: 'Mozilla/5.0 test', acceptHeader: 'application/json, */*', language: 'en-GB', colorDepth: 24, screenHeight: 900, screenWidth: 1440, timeZoneOffset: -60, javaEnabled: false },
  });
  // The card number and code went to Adyen, never to our database or logs.
  const logged = JSON.stringify(service.logs);
  expect(logged).not.toContain(VISA);
});

test.each(Object.entries(REFUSAL_REASONS))('refusal reason %s reaches the customer as its category and the payment as failed', async (code, { code: failure }) => {
  const { id } = await newPayment();
  const answer = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.refuse(code) } });
  const view = answer.body.data.submitCard;
  expect(view.status).toBe('FAILED');
  expect(view.failureCode).toBe(SHOPPER_FAILURE_OF[failure]);
  expect(view.failureMessage).toBe(SHOPPER_MESSAGES[SHOPPER_FAILURE_OF[failure]]);
  expect((await reload(id)).failureCode).toBe(failure);
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
});

test('the refusal table maps the reasons Adyen documents onto the right codes', () => {
  const expected: Record<string, string> = { '2': 'card_declined', '5': 'card_declined', '6': 'expired_card', '11': 'authentication_failed', '12': 'insufficient_funds', '20': 'fraudulent', '24': 'incorrect_cvc', '9': 'processing_error' };
  for (const [code, failure] of Object.entries(expected)) expect(REFUSAL_REASONS[code].code).toBe(failure);
});

/**
 * Follows the page to the issuer with the way the card submission's answer gave (`submitted`: only that
 * browser has it), and the issuer's answer back to our return route; returns that address.
 */
async function throughIssuer(submitted: { authenticationUrl: string }, id: string, outcome: 'pass' | 'fail'): Promise<{ returnPath: string; session: string }> {
  const view = (await checkoutClient(service.url).view(id)).body.data.checkoutPayment;
  expect(view.stage).toBe('AUTHENTICATION_REQUIRED');
  // Anyone who knows the payment id sees the page's own route, and is sent back to the page from there.
  expect(view.authenticationUrl).toBe(`/checkout/${id}/3ds`);
  const stranger = await request(service.url).get(view.authenticationUrl);
  expect([stranger.status, stranger.headers.location]).toEqual([303, `/checkout/${id}?issuer=elsewhere`]);
  expect(submitted.authenticationUrl).toMatch(new RegExp(`^/checkout/${id}/3ds\\?t=[A-Za-z0-9_-]{43}$`));
  const toIssuer = await request(service.url).get(submitted.authenticationUrl);
  expect(toIssuer.status).toBe(303);
  expect(toIssuer.headers.location).toMatch(new RegExp(`^${adyen.url}/issuer/3ds\\?session=`));
  const issuerPage = await fetch(toIssuer.headers.location);
  expect(await issuerPage.text()).toContain('Authenticate');
  const session = AdyenStandIn.sessionOf(toIssuer.headers.location);
  const back = new URL(adyen.returnAddress(session, outcome));
  expect(back.origin + back.pathname).toBe(`https://pay.example.test/checkout/${id}/3ds-return`);
  return { returnPath: back.pathname + back.search, session };
}

test('3-D Secure: to the issuer\'s page and back; completes once even when the return page loads twice', async () => {
  const { id } = await newPayment();
  const submitted = await checkoutClient(service.url).pay(id, ADYEN_3DS_CARD);
  expect(submitted.body.data.submitCard).toMatchObject({ stage: 'AUTHENTICATION_REQUIRED', authenticationUrl: expect.stringMatching(`^/checkout/${id}/3ds\\?t=`) });
  const { returnPath, session } = await throughIssuer(submitted.body.data.submitCard, id, 'pass');
  const [first, second] = await Promise.all([request(service.url).get(returnPath), request(service.url).get(returnPath)]);
  const third = await request(service.url).get(returnPath);
  for (const answer of [first, second, third]) {
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(`/checkout/${id}?issuer=returned`);
  }
  const payment = await reload(id);
  expect(payment.status).toBe('completed');
  expect(payment.threeDsOutcome).toBe('challenged');
  const details = adyen.requestsTo('/payments/details').filter((r) => (r.body.details as { redirectResult: string }).redirectResult.startsWith(`${session}.`));
  expect(details).toHaveLength(1);
  expect(await journalOf(id)).toHaveLength(4);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(1);
  // The in-page answer of the simulator cannot be used on an Adyen challenge.
  expect((await checkoutClient(service.url).authenticate(id, true)).body.data.answerThreeDSecure.status).toBe('COMPLETED');
});

test('3-D Secure by form POST: our page posts the action\'s fields to the issuer, escaped, and may post nowhere else', async () => {
  const { id } = await newPayment();
  const submitted = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: ADYEN_3DS_CARD, ...CARD, nameOnCard: HOLDER.postRedirect } });
  const page = await request(service.url).get(submitted.body.data.submitCard.authenticationUrl);
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toContain(`form-action ${adyen.url};`);
  expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  expect(page.text).toMatch(new RegExp(`<form method="post" action="${adyen.url}/issuer/3ds\\?session=[0-9a-f]+">`));
  expect(page.text).toContain('name="PaReq" value="BQABAgA&#34;&#60;x&#62;"');
  expect(page.text).toContain('<button type="submit">Continue to your bank</button>');
  expect(page.text).not.toContain('<script');
});

test('3-D Secure failed at the issuer: the payment fails with authentication_failed', async () => {
  const { id } = await newPayment();
  const submitted = await checkoutClient(service.url).pay(id, ADYEN_3DS_CARD);
  // An answer from our page (not the issuer's) is not taken.
  const inPage = await checkoutClient(service.url).authenticate(id, true);
  expect(inPage.body.data.answerThreeDSecure.stage).toBe('AUTHENTICATION_REQUIRED');
  // This issuer comes back by form POST.
  const back = new URL((await throughIssuer(submitted.body.data.submitCard, id, 'fail')).returnPath, 'http://x');
  const redirectResult = back.searchParams.get('redirectResult');
  back.searchParams.delete('redirectResult');
  const posted = await request(service.url).post(back.pathname + back.search).type('form').send({ redirectResult });
  expect(posted.status).toBe(303);
  const payment = await reload(id);
  expect(payment.status).toBe('failed');
  expect(payment.failureCode).toBe('authentication_failed');
  expect(payment.threeDsOutcome).toBe('failed');
});

test('a time-out after Adyen charged the card ends completed exactly once, by the AUTHORISATION notification', async () => {
  const { id } = await newPayment();
  const answer = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.loseAnswer } });
  expect(answer.body.errors?.[0]?.extensions?.code).toBe('PROCESSOR_UNAVAILABLE');
  expect((await reload(id)).checkoutStage).toBe('processing');
  // Reconciliation asks, but Checkout v71 has no look-up: still unknown, nothing settled.
  await eventually(async () => service.logs.some((l) => l.paymentId === id && String(l.msg).includes('still unknown')), 10_000, 'a reconciliation pass');
  expect((await reload(id)).status).toBe('pending');

  const delivered = await adyen.notifyAuthorisation(id);
  expect(delivered).toMatchObject({ status: 200, text: '[accepted]' });
  const again = await adyen.notifyAuthorisation(id);
  expect(again).toMatchObject({ status: 200, text: '[accepted]' });
  await applyNotifications();
  const payment = await reload(id);
  expect(payment.status).toBe('completed');
  expect(payment.processorReference).toBe(adyen.authorisations.get(id)!.pspReference);
  expect(await journalOf(id)).toHaveLength(4);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(1);
  // The same request again (a retry) carries the same Idempotency-Key: Adyen would answer the first result.
  expect(adyen.requestsTo('/payments').filter((r) => r.body.reference === id).map((r) => r.idempotencyKey)).toEqual([id]);
});

test('resultCode Error is final, as Adyen defines it: the payment fails with processing_error and nothing is booked', async () => {
  const { id } = await newPayment();
  const answer = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.error } });
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data.submitCard).toMatchObject({ status: 'FAILED', failureCode: 'processing_error' });
  const payment = await reload(id);
  expect(payment.status).toBe('failed');
  expect(payment.failureCode).toBe('processing_error');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(0);
});

test('a refund goes processing -> refunded on the REFUND notification and is debited once', async () => {
  const { id } = await newPayment();
  expect((await checkoutClient(service.url).pay(id, VISA)).body.data.submitCard.status).toBe('COMPLETED');
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
  expect((await refundOf()).status).toBe('processing');
  expect((await reload(id)).status).toBe('completed');

  const refundRequests = () => adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === requestRefund.id);
  // On a busy machine a job may take over an attempt still waiting for its answer (300 ms here): it sends the same
  // request with the same idempotency key, which the acquirer answers once.
  expect(refundRequests().length).toBeGreaterThanOrEqual(1);
  for (const sent of refundRequests()) {
    expect(sent.idempotencyKey).toBe(requestRefund.id);
    expect(sent.body).toEqual({ merchantAccount: adyen.credentials.merchantAccount, reference: requestRefund.id, amount: { currency: 'USD', value: VALID_PAYMENT.amount } });
  }
  // Acknowledged, it waits for the notification: past REFUND_PROCESSING_TIMEOUT_MS (300 ms here) it is not sent again.
  const { attempts } = await refundOf();
  const sentWhenAcknowledged = refundRequests().length;
  await sleep(1000);
  expect(refundRequests()).toHaveLength(sentWhenAcknowledged);
  expect((await refundOf()).attempts).toBe(attempts);

  const notification = {
    eventCode: 'REFUND',
    pspReference: (await refundOf()).processorReference!,
    originalReference: (await reload(id)).processorReference!,
    merchantReference: requestRefund.id,
    amount: { currency: 'USD', value: VALID_PAYMENT.amount },
    success: true,
  };
  // Forged or misconfigured notifications change nothing.
  expect((await adyen.notify(notification, { hmacKey: 'AB'.repeat(32) })).status).toBe(401);
  expect((await adyen.notify(notification, { password: 'wrong' })).status).toBe(401);
  expect((await adyen.notify(notification, { mutate: (item) => (item.amount = { currency: 'USD', value: 1 }) })).status).toBe(401);
  expect((await refundOf()).status).toBe('processing');

  expect((await adyen.notify(notification)).text).toBe('[accepted]');
  expect((await adyen.notify(notification)).text).toBe('[accepted]');
  await applyNotifications();
  expect((await refundOf()).status).toBe('refunded');
  expect((await reload(id)).status).toBe('refunded');
  expect((await journalOf(id)).filter((line) => line.includes(' refund '))).toEqual([`customer_funds refund ${VALID_PAYMENT.amount}`, `seller_balance refund -${VALID_PAYMENT.amount}`]);
  expect(await ourViolations()).toEqual([]);
});

test('a refund whose answer is lost is sent again under the same Idempotency-Key, gets the first answer, and settles once', async () => {
  const { id } = await newPayment(LOSE_REFUND_ANSWER_CENTS);
  await checkoutClient(service.url).pay(id, VISA);
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  // The first answer is lost; the refund jobs take the stale claim over and ask again, with the same key.
  await eventually(async () => (await refundOf()).processorReference, 10_000, 'the repeated refund call to be answered');
  const sent = adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === requestRefund.id);
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(new Set(sent.map((r) => r.idempotencyKey))).toEqual(new Set([requestRefund.id]));
  expect((await refundOf()).status).toBe('processing');
  // Once an answer got through, the calls stop.
  const calls = adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === requestRefund.id).length;
  await sleep(1000);
  expect(adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === requestRefund.id)).toHaveLength(calls);
  const pspReference = (await refundOf()).processorReference!;
  await adyen.notify({ eventCode: 'REFUND', pspReference, originalReference: (await reload(id)).processorReference!, merchantReference: requestRefund.id, amount: { currency: 'USD', value: LOSE_REFUND_ANSWER_CENTS }, success: true });
  await applyNotifications();
  expect((await refundOf()).status).toBe('refunded');
  expect((await journalOf(id)).filter((line) => line.includes(' refund '))).toHaveLength(2);
  expect(await ourViolations()).toEqual([]);
});

test('a REFUND notification with success=false fails the refund; the payment stays completed', async () => {
  const { id } = await newPayment();
  await checkoutClient(service.url).pay(id, VISA);
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  const refundOf = () => service.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  await eventually(async () => (await refundOf()).processorReference, 10_000, 'Adyen to receive the refund');
  await adyen.notify({
    eventCode: 'REFUND', pspReference: (await refundOf()).processorReference!, originalReference: (await reload(id)).processorReference!,
    merchantReference: requestRefund.id, amount: { currency: 'USD', value: VALID_PAYMENT.amount }, success: false, reason: 'Insufficient balance on payment',
  });
  await applyNotifications();
  expect((await refundOf()).status).toBe('failed');
  expect((await reload(id)).status).toBe('completed');
  expect(await ourViolations()).toEqual([]);
});

test('a notification with wrong credentials or a wrong HMAC is refused and changes nothing', async () => {
  const { id } = await newPayment();
  await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.loseAnswer } }).catch(() => undefined);
  const authorised = adyen.authorisations.get(id)!;
  const fields = { eventCode: 'AUTHORISATION', pspReference: authorised.pspReference, merchantReference: id, amount: authorised.amount, success: true };
  expect((await adyen.notify(fields, { password: 'guess' })).status).toBe(401);
  expect((await adyen.notify(fields, { hmacKey: '00'.repeat(32) })).status).toBe(401);
  expect((await adyen.notify(fields, { mutate: (item) => delete item.additionalData.hmacSignature })).status).toBe(401);
  // Signed for another payment, then pointed at this one: the signature covers the reference.
  expect((await adyen.notify(fields, { mutate: (item) => (item.merchantReference = `${id}x`) })).status).toBe(401);
  const unauthenticated = await request(service.url).post('/acquirer/adyen/notifications').send({ notificationItems: [] });
  expect(unauthenticated.status).toBe(401);
  const payment = await reload(id);
  expect(payment.status).toBe('pending');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
});

test('a CHARGEBACK takes the disputed amount from the seller by its own journal, once; check-ledger stays clean', async () => {
  const { id, shop } = await newPayment(5000);
  await checkoutClient(service.url).pay(id, VISA);
  const payment = await reload(id);
  const chargeback = {
    eventCode: 'CHARGEBACK', pspReference: `CB${payment.processorReference!.slice(2)}`, originalReference: payment.processorReference!,
    merchantReference: id, amount: { currency: 'USD', value: 5000 }, success: true, reason: 'Fraudulent transaction',
  };
  expect((await adyen.notify(chargeback)).text).toBe('[accepted]');
  expect((await adyen.notify(chargeback)).text).toBe('[accepted]');
  await applyNotifications();
  expect((await journalOf(id)).filter((line) => line.includes('chargeback'))).toEqual(['customer_funds chargeback 5000', 'seller_balance chargeback -5000']);
  const balance = await service.em().getConnection().execute(`select coalesce(sum("amount"), 0)::int as sum from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`, [shop.seller.id]);
  expect(balance[0].sum).toBe(5000 - 750 - 5000);
  // Admins see it on the payment.
  const support = await adminClient(service, AdminRole.SUPPORT);
  const found = await support.ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { dispute { status amount currency reason acquirerReference liability } } } }`, { id });
  expect(found.searchPayments.items[0].dispute).toEqual({ status: 'CHARGED_BACK', amount: 5000, currency: 'usd', reason: 'Fraudulent transaction', acquirerReference: chargeback.pspReference, liability: 'SELLER' });
  expect(await ourViolations()).toEqual([]);
});

test('Adyen authorised a payment that failed here: the authorization is reversed at Adyen', async () => {
  const { id } = await newPayment();
  await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.refuse('2') } });
  expect((await reload(id)).status).toBe('failed');
  const late = { eventCode: 'AUTHORISATION', pspReference: 'LATEAUTH00000001', merchantReference: id, amount: { currency: 'USD', value: VALID_PAYMENT.amount }, success: true };
  expect((await adyen.notify(late)).text).toBe('[accepted]');
  await applyNotifications();
  const reversal = adyen.requestsTo('/payments/{paymentPspReference}/reversals').find((r) => r.body.reference === `${id}-void`)!;
  expect(reversal).toMatchObject({ idempotencyKey: `${id}-void`, body: { merchantAccount: adyen.credentials.merchantAccount, reference: `${id}-void` } });
  expect((await reload(id)).status).toBe('failed');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
});

test('other events are acknowledged and kept, changing nothing', async () => {
  const { id } = await newPayment();
  await checkoutClient(service.url).pay(id, VISA);
  const payment = await reload(id);
  const answer = await adyen.notify({ eventCode: 'CAPTURE', pspReference: 'CAPTURE000000001', originalReference: payment.processorReference!, merchantReference: id, amount: { currency: 'USD', value: VALID_PAYMENT.amount }, success: true });
  expect(answer.text).toBe('[accepted]');
  expect((await reload(id)).status).toBe('completed');
});

test("check-ledger finds nothing wrong with this file's payments and sellers", async () => {
  expect(ours.size).toBeGreaterThan(10);
  expect(await ourViolations()).toEqual([]);
});
