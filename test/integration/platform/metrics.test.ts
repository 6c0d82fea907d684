import request from 'supertest';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';

describe('GET /metrics (Prometheus)', () => {
  const receiver = useReceiver();
  const service = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' });

  test('exposes request latency by route template, payments by outcome, webhook and queue series', async () => {
    const seller = sellerClient(service.url, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
    const customer = checkoutClient(service.url);
    await customer.pay((await seller.create(VALID_PAYMENT)).body.data.id, '4242424242424242');
    await customer.pay((await seller.create(VALID_PAYMENT)).body.data.id, '4000000000000002');
    await seller.retrieve('pay_000000000000000000000000');

    let res = await request(service.url).get('/metrics');
    for (let i = 0; i < 100 && !/webhook_deliveries_total\{outcome="delivered"\} 1/.test(res.text); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await request(service.url).get('/metrics');
    }
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/payments",status="200"\} 2/);
    expect(res.text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/payments\/:id",status="404"\} 1/);
    expect(res.text).not.toMatch(/pay_0000/);
    expect(res.text).toMatch(/payments_total\{outcome="completed"\} 1/);
    expect(res.text).toMatch(/payments_total\{outcome="failed_card_declined"\} 1/);
    expect(res.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} 1/);
    expect(res.text).toMatch(/webhook_delivery_lag_seconds_count 1/);
    // Database-wide gauges: earlier suites of this worker may have left work in its database.
    expect(res.text).toMatch(/queue_depth\{queue="webhook_deliveries_due"\} \d+\n/);
    expect(res.text).toMatch(/queue_depth\{queue="refunds_approved"\} \d+\n/);
    for (const series of ['webhook_deliveries_total', 'webhook_delivery_lag_seconds', 'queue_depth', 'process_cpu_seconds_total']) {
      expect(res.text).toContain(`# TYPE ${series}`);
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const service = useTestService({ METRICS_TOKEN: 'scrape-secret' });

  test('is refused without the token, even from loopback, and served with it', async () => {
    expect((await request(service.url).get('/metrics')).status).toBe(403);
    expect((await request(service.url).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(403);
    expect((await request(service.url).get('/metrics').set('Authorization', 'Bearer scrape-secret')).status).toBe(200);
  });
});
