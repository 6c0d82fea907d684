import { AdminRole } from '../../../src/modules/admins/admin-role';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { BROWSER_DEFAULTS } from '../../../src/platform/processor/adyen/adyen-processor';
import { adminClient, eventually } from '../../support/admin-client';
import { HOLDER, REFUND_IN_PROGRESS_CENTS, REFUND_SERVER_ERROR_CENTS, REFUSE_REFUND_CENTS, useAdyenStandIn } from '../../support/adyen-stand-in';
import { CARD, checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, graphqlAs, sleep } from '../../support/webhook-support';

/**
 * How the adapter reads Adyen's answers (docs/acquirers.md): a request Adyen refused without processing it is
 * final (a refund fails with Adyen's reason and is never sent again; a payment fails), a 5xx or 704 stays
 * unknown, and every payment carries the 3-D Secure 2 data Adyen's definition requires. The stand-in checks
 * every request against CheckoutService-v71.json; afterEach fails a test that sent a request breaking it.
 */
jest.setTimeout(60_000);

const VISA = '4111111111111111';
// Long enough for one refund call on a loaded CI machine (at 300 ms the sweep once took over a call still running
// and sent a refused refund twice), short enough to see an unknown outcome sent again within seconds.
const PROCESSING_TIMEOUT_MS = 1500;
const adyen = useAdyenStandIn();
const receiver = useReceiver();
const service = useTestService(() => ({
  ...adyen.env(),
  ...FAST_WEBHOOKS,
  // The refund sweep takes over a `processing` claim older than 1.5 s: a refund left unknown is sent again quickly.
  REFUND_PROCESSING_TIMEOUT_MS: String(PROCESSING_TIMEOUT_MS),
  REFUND_SWEEP_INTERVAL_MS: '100',
  RECONCILE_AFTER_MS: '200',
  RECONCILE_INTERVAL_MS: '100',
  RATE_LIMIT_PER_MINUTE: '10000',
  AUTH_FAILURES_PER_MINUTE: '10000',
}));
beforeAll(() => {
  adyen.serviceUrl = service.url;
});
afterEach(() => {
  expect(adyen.violations).toEqual([]);
});

const paymentOf = (id: string) => service.em().findOneOrFail(Payment, { id }, { refresh: true });
const refundOf = (id: string) => service.em().findOneOrFail(Refund, { id }, { refresh: true });
const refundRequestsFor = (refundId: string) => adyen.requestsTo('/payments/{paymentPspReference}/refunds').filter((r) => r.body.reference === refundId);

/** A seller signed up on the dashboard, with a completed Adyen payment of `amount` cents. */
async function sellerWithCompletedPayment(amount: number) {
  const seller = await signUpSeller(service.url);
  const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount });
  expect(created.status).toBe(200);
  const id = created.body.data.id as string;
  expect((await checkoutClient(service.url).pay(id, VISA)).body.data.submitCard.status).toBe('COMPLETED');
  return { seller, id };
}

/** The seller asks from the dashboard, finance approves: the refund jobs then call Adyen. */
async function refundApproved(seller: Awaited<ReturnType<typeof signUpSeller>>, paymentId: string): Promise<string> {
  const asked = await dashboard(service.url, 'RequestRefund', { paymentId, reason: 'returned' }, seller.session);
  expect(asked.body.errors).toBeUndefined();
  const refundId = asked.body.data.requestRefund.id as string;
  const finance = await adminClient(service, AdminRole.FINANCE);
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
  return refundId;
}

describe('a refund Adyen refuses', () => {
  test('422 with its error code: the refund fails at once with Adyen\'s reason, is sent once, and the seller and its webhook hear of it', async () => {
    const { seller, id } = await sellerWithCompletedPayment(REFUSE_REFUND_CENTS);
    // The seller chose refund.failed for its webhook.
    const asSeller = graphqlAs(service, seller.apiKey);
    expect((await asSeller(`mutation ($url: String) { setWebhookUrl(url: $url) { id } }`, { url: receiver.url })).errors).toBeUndefined();
    expect((await asSeller(`mutation ($e: [String!]!) { setWebhookEvents(events: $e) { webhookEvents } }`, { e: ['refund.failed'] })).data?.setWebhookEvents.webhookEvents).toEqual(['refund.failed']);

    const refundId = await refundApproved(seller, id);
    const reason = '422 167: Original pspReference required for this operation';
    await eventually(async () => (await refundOf(refundId)).status === 'failed', 10_000, 'the refund to fail');
    const refund = await refundOf(refundId);
    expect(refund.failureReason).toBe(reason);
    expect(refund.processorReference).toBeNull();
    expect(refund.attempts).toBe(1);
    // The payment stays completed and nothing is taken from the seller.
    expect((await paymentOf(id)).status).toBe('completed');
    expect(await service.em().count(LedgerEntry, { paymentId: id, kind: 'refund' })).toBe(0);

    // refund.failed is recorded once, and delivered to the shop that chose it.
    expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'refund.failed' })).toBe(1);
    const delivered = (await eventually(async () => receiver.received.find((r) => r.body.event === 'refund.failed' && r.body.payment.id === id), 10_000, 'the refund.failed webhook'))!;
    expect((delivered.body as unknown as { refund: Record<string, unknown> }).refund).toMatchObject({ id: refundId, status: 'failed', failure_reason: reason });

    // The seller reads it on the dashboard's payment page.
    const detail = await dashboard(service.url, 'PaymentDetail', { id }, seller.session);
    expect(detail.body.errors).toBeUndefined();
    expect(detail.body.data.payment.status).toBe('COMPLETED');
    expect(detail.body.data.payment.refunds).toEqual([expect.objectContaining({ id: refundId, status: 'FAILED', failureReason: reason })]);

    // Final: past two processing time-outs, Adyen has still been asked exactly once.
    await sleep(3 * PROCESSING_TIMEOUT_MS);
    const sent = refundRequestsFor(refundId);
    expect(sent).toHaveLength(1);
    expect(sent[0].idempotencyKey).toBe(refundId);
    expect((await refundOf(refundId)).status).toBe('failed');
    // The seller may ask again: a failed request is closed.
    expect((await dashboard(service.url, 'RequestRefund', { paymentId: id, reason: 'returned, again' }, seller.session)).body.errors).toBeUndefined();
  });

  test.each([
    ['HTTP 500', REFUND_SERVER_ERROR_CENTS],
    ['HTTP 422 with error code 704 (already processed or in progress)', REFUND_IN_PROGRESS_CENTS],
  ])('%s is not a refusal: the refund stays processing and is sent again under the same Idempotency-Key', async (_name, cents) => {
    const { seller, id } = await sellerWithCompletedPayment(cents);
    const refundId = await refundApproved(seller, id);
    await eventually(async () => refundRequestsFor(refundId).length >= 3, 20_000, 'the refund to be sent again');
    expect(new Set(refundRequestsFor(refundId).map((r) => r.idempotencyKey))).toEqual(new Set([refundId]));
    const refund = await refundOf(refundId);
    expect(refund.status).toBe('processing');
    expect(refund.failureReason).toBeNull();
    expect((await paymentOf(id)).status).toBe('completed');
    expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'refund.failed' })).toBe(0);
  });
});

describe('a payment Adyen refuses', () => {
  test('422 with its error code: the payment fails processing_error, nothing booked', async () => {
    const { id } = await newPendingPayment();
    const answer = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.unprocessable } });
    expect(answer.body.data.submitCard).toMatchObject({ status: 'FAILED', failureCode: 'processing_error' });
    expect((await paymentOf(id)).status).toBe('failed');
    expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
  });

  test('422 with error code 704: outcome unknown, the payment stays processing', async () => {
    const { id } = await newPendingPayment();
    const answer = await checkoutClient(service.url).run('SubmitCard', { id, card: { number: VISA, ...CARD, nameOnCard: HOLDER.inProgress } });
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('PROCESSOR_UNAVAILABLE');
    const payment = await paymentOf(id);
    expect(payment.status).toBe('pending');
    expect(payment.checkoutStage).toBe('processing');
  });
});

/** A new pending payment (not yet paid) of a new shop. */
async function newPendingPayment(): Promise<{ id: string }> {
  const shop = await service.createShop();
  const created = await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT);
  return { id: created.body.data.id as string };
}

describe('3-D Secure 2 data', () => {
  const sentFor = (id: string) => adyen.requestsTo('/payments').find((r) => r.body.reference === id)!.body;

  test('a card submitted without any screen data still sends origin and a complete browserInfo, valid against v71', async () => {
    const { id } = await newPendingPayment();
    const answer = await checkoutClient(service.url, { 'User-Agent': 'Mozilla/5.0 (no screen)', Accept: 'application/json' }).run('SubmitCard', { id, card: { number: VISA, ...CARD } });
    expect(answer.body.data.submitCard.status).toBe('COMPLETED');
    const sent = sentFor(id);
    // BASE_URL is https://pay.example.test (test-service.ts): the checkout page's origin, no path, no slash.
    expect(sent.origin).toBe('https://pay.example.test');
    expect(sent.browserInfo).toEqual({
      userAgent: 'Mozilla/5.0 (no screen)',
      acceptHeader: 'application/json',
      language: 'en',
      colorDepth: 24,
      screenHeight: 0,
      screenWidth: 0,
      timeZoneOffset: 0,
      javaEnabled: false,
    });
    expect(BROWSER_DEFAULTS).toEqual({ userAgent: 'unknown', acceptHeader: '*/*', language: 'en', colorDepth: 24, screenHeight: 0, screenWidth: 0, timeZoneOffset: 0, javaEnabled: false });
    // Browser-based 3-D Secure 2 needs a billing address: the page collects none, so Adyen's form for one not known.
    expect(sent.billingAddress).toEqual({ country: 'ZZ', city: '', street: '', houseNumberOrName: '', postalCode: '' });
  });

  test('a request without User-Agent or Accept headers never sends them empty', async () => {
    const { id } = await newPendingPayment();
    const answer = await checkoutClient(service.url, { 'User-Agent': '', Accept: '' }).run('SubmitCard', { id, card: { number: VISA, ...CARD } });
    expect(answer.body.data.submitCard.status).toBe('COMPLETED');
    expect(sentFor(id).browserInfo).toMatchObject({ userAgent: 'unknown', acceptHeader: '*/*' });
  });

  test('what the page sent is kept; only the missing fields take the documented defaults', async () => {
    const { id } = await newPendingPayment();
    const answer = await checkoutClient(service.url, { 'User-Agent': 'Mozilla/5.0 test', Accept: 'application/json, text/plain, */*' }).run('SubmitCard', {
      id,
      card: { number: VISA, ...CARD },
      browser: { language: 'nl-NL', screenWidth: 390, timeZoneOffset: -120 },
    });
    expect(answer.body.data.submitCard.status).toBe('COMPLETED');
    const sent = sentFor(id);
    expect(sent.origin).toBe('https://pay.example.test');
    expect(sent.browserInfo).toEqual({ userAgent: 'Mozilla/5.0 test', acceptHeader: 'application/json, text/plain, */*', language: 'nl-NL', colorDepth: 24, screenHeight: 0, screenWidth: 390, timeZoneOffset: -120, javaEnabled: false });
  });
});
