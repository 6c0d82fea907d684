import { execFile } from 'node:child_process';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import request from 'supertest';
import { payableShop } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { startExample, type ExampleProcess } from '../../support/example-shop';
import { FAST_WEBHOOKS } from '../../support/webhook-support';
import { useTestService } from '../../support/test-service';

/*
 * examples/seller-shop.mjs (the seller integration docs/integrate.md walks through) run as a seller would run
 * it, against the real service: its /buy creates a payment and redirects to the checkout page, a customer pays
 * there, the service's webhook reaches the example, and the example verifies both signatures. So the example,
 * and the doc quoting it, cannot rot.
 */
const RECEIVER = path.resolve(__dirname, '../../../examples/webhook-receiver.mjs');
const INTEGRATE = fs.readFileSync(path.resolve(__dirname, '../../../docs/integrate.md'), 'utf8');

describe('examples/seller-shop.mjs against the running service', () => {
  const service = useTestService(FAST_WEBHOOKS);
  let example: ExampleProcess;
  let secret: string;
  let apiKey: string;

  beforeAll(async () => {
    // The example's port is known only once it listens, and the shop's webhook URL must name it: create the
    // shop after a first start, then restart the example with the shop's credentials on that same port.
    const probe = await startExample({ API_KEY: 'svc_live_x', WEBHOOK_SECRET: 'whsec_x' });
    const port = new URL(probe.url).port;
    await probe.stop();
    // With a payout account saved, as the seller of "Balances and withdrawals" has on the dashboard.
    const shop = await payableShop(service, { webhookUrl: `http://127.0.0.1:${port}/webhooks/payments` });
    secret = shop.webhookSecret;
    apiKey = shop.apiKey;
    example = await startExample({ API_KEY: shop.apiKey, WEBHOOK_SECRET: secret, API_BASE: service.url, PORT: port });
  });

  afterAll(async () => {
    await example?.stop();
  });

  test('create, redirect to checkout, pay, and the example verifies the payment.completed webhook', async () => {
    const redirect = await fetch(`${example.url}/buy?amount=2500&order=A-17`, { redirect: 'manual' });
    expect(redirect.status).toBe(303);
    const checkoutUrl = redirect.headers.get('location')!;
    expect(checkoutUrl).toMatch(/^https:\/\/pay\.example\.test\/checkout\/pay_[0-9A-Za-z]{24}$/);
    const paymentId = checkoutUrl.split('/').pop()!;

    const paid = await checkoutClient(service.url).pay(paymentId, '4242424242424242');
    expect(paid.body.data.submitCard.status).toBe('COMPLETED');
    // Its return_url is its own https://localhost:<port>/thanks, which test mode follows over http (a browser walks it:
    // test/browser/example-shop.test.ts).
    const port = new URL(example.url).port;
    expect(example.output()).toContain(`"return_url":"https://localhost:${port}/thanks"`);
    expect(paid.body.data.submitCard.redirectUrl).toBe(`http://localhost:${port}/thanks?payment_id=${paymentId}&status=completed`);

    await example.waitFor(new RegExp(`"msg":"webhook verified".*"payment_id":"${paymentId}","status":"completed","order_id":"A-17"`));
    expect(example.output()).not.toMatch(/bad signature/);

    // The return_url page asks the API instead of believing the query string.
    const thanks = await fetch(`${example.url}/thanks?payment_id=${paymentId}&status=completed`);
    expect(await thanks.text()).toBe(`Payment ${paymentId} is completed.\n`);
  });

  test('the same order id is the same payment (the Idempotency-Key the example sends)', async () => {
    const first = await fetch(`${example.url}/buy?amount=1500&order=B-1`, { redirect: 'manual' });
    const again = await fetch(`${example.url}/buy?amount=1500&order=B-1`, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
  });

  test('a forged or altered webhook is refused with 400 and not acted on', async () => {
    const body = JSON.stringify({ id: 'evt_forged', event: 'payment.completed', payment: { id: 'pay_forged', status: 'completed', metadata: {} } });
    const forged = await fetch(`${example.url}/webhooks/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': createHmac('sha256', 'whsec_guess').update(body).digest('hex') },
      body,
    });
    expect(forged.status).toBe(400);

    // Right X-Service-Signature, but no Standard Webhooks headers (a replay of a captured body cannot add fresh ones).
    const replayed = await fetch(`${example.url}/webhooks/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': createHmac('sha256', secret).update(body).digest('hex') },
      body,
    });
    expect(replayed.status).toBe(400);
    expect(example.output()).not.toMatch(/pay_forged/);
  });

  test('examples/webhook-receiver.mjs (quoted whole in docs/integrate.md) verifies a real delivery', async () => {
    const receiver = await startExample({ WEBHOOK_SECRET: 'whsec_unknown_yet' }, RECEIVER);
    await receiver.stop();
    const port = new URL(receiver.url).port;
    const shop = await service.createShop({ webhookUrl: `http://127.0.0.1:${port}/hooks` });
    const running = await startExample({ WEBHOOK_SECRET: shop.webhookSecret, PORT: port }, RECEIVER);
    try {
      const created = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${shop.apiKey}`)
        .send({ amount: 777, currency: 'usd', return_url: 'https://shop.example.com/thanks' });
      const paid = await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
      expect(paid.body.data.submitCard.status).toBe('COMPLETED');
      await running.waitFor(new RegExp(`\\{"received":"payment.completed","payment_id":"${created.body.data.id}","amount":777\\}`));
      // A body signed with another secret is refused.
      const body = '{"id":"evt_x","event":"payment.completed","payment":{"id":"pay_x"}}';
      const forged = await fetch(`${running.url}/hooks`, { method: 'POST', body, headers: { 'x-service-signature': createHmac('sha256', secret).update(body).digest('hex') } });
      expect(forged.status).toBe(400);
    } finally {
      await running.stop();
    }
  });

  test('the GraphQL of "Balances and withdrawals" runs with the seller key, as written', async () => {
    const redirect = await fetch(`${example.url}/buy?amount=2000&order=C-9`, { redirect: 'manual' });
    const paymentId = redirect.headers.get('location')!.split('/').pop()!;
    expect((await checkoutClient(service.url).pay(paymentId, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');

    const section = INTEGRATE.slice(INTEGRATE.indexOf('## 12. Balances and withdrawals'));
    const documents = /```graphql\n([\s\S]*?)```/.exec(section)![1].trim().split('\n');
    expect(documents).toHaveLength(3);
    const answers = [];
    for (const query of documents) {
      const answer = await request(service.url).post('/graphql').set('Authorization', `Bearer ${apiKey}`).send({ query });
      expect(answer.body.errors).toBeUndefined();
      answers.push(answer.body.data);
    }
    expect(answers[0].balance.available).toBeGreaterThanOrEqual(1000);
    expect(answers[1].requestWithdrawal).toMatchObject({ amount: 1000, status: 'REQUESTED' });
    expect(answers[2].withdrawals.items).toContainEqual(answers[1].requestWithdrawal);
  });

  test('the setWebhookUrl command of "Run the whole example" works as written with a seller key', async () => {
    const section = INTEGRATE.slice(INTEGRATE.indexOf('## Run the whole example'));
    const command = /^(curl -s localhost:3000\/graphql[^\n]*\\\n[^\n]*)$/m.exec(section)![1];
    const shop = await service.createShop();
    const output = await new Promise<string>((resolve, reject) =>
      execFile('bash', ['-c', `KEY='${shop.apiKey}'\n${command.replaceAll('localhost:3000', service.url.replace(/^http:\/\//, ''))}`], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(JSON.parse(output)).toEqual({ data: { setWebhookUrl: { webhookUrl: 'http://127.0.0.1:4000/webhooks/payments' } } });
  });
});
