import request from 'supertest';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { createAdmin } from '../../src/modules/admins/admin.service';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../src/shared/config';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import type { WebhookAttempt } from '../../src/modules/webhooks/webhook-attempt.entity';
import { attemptsOfDeliveries } from '../../src/modules/webhooks/webhook-settings.service';
import { checkoutClient } from './checkout-client';
import { sellerClient, VALID_PAYMENT } from './seller-client';
import { suiteFixture } from './suite-fixture';
import { startTestService, type TestService } from './test-service';
import { startReceiver, type Receiver } from './webhook-receiver';

/** Service settings for webhook tests: loopback http receivers allowed, a schedule that runs in milliseconds. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
  WEBHOOK_RETRY_BASE_DELAY_MS: '50',
  WEBHOOK_MAX_ATTEMPTS: '4',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
};

export interface WebhookSuite {
  service: TestService;
  receiver: Receiver;
  /** GraphQL as an owner admin. */
  admin: ReturnType<typeof graphqlAs>;
}

/**
 * The set-up of a webhook suite: the service with FAST_WEBHOOKS (and `env`), one loopback receiver, and an
 * owner admin's GraphQL client, for the whole file (suite-fixture.ts); before each test the receiver is
 * emptied and answers 200 again.
 *
 *     const suite = useWebhookService();
 *     beforeAll(async () => { shop = await suite.service.createShop({ webhookUrl: suite.receiver.url }); });
 */
export function useWebhookService(env: Record<string, string> = {}): Readonly<WebhookSuite> {
  const suite = suiteFixture(
    'useWebhookService',
    async () => {
      const service = await startTestService({ ...FAST_WEBHOOKS, ...env });
      const receiver = await startReceiver();
      return { service, receiver, admin: graphqlAs(service, await newAdminToken(service)) };
    },
    async ({ service, receiver }) => {
      await service.stop();
      await receiver.close();
    },
  );
  beforeEach(() => suite.receiver.reset());
  return suite;
}

/** A seller's shop whose customer pays: payments created over REST, paid on the hosted checkout (GraphQL). */
export function shopActor(service: TestService, apiKey: string) {
  const seller = sellerClient(service.url, apiKey);
  const customer = checkoutClient(service.url);
  return {
    seller,
    /** Creates a payment and pays it with the always-approved test card; returns the payment id. */
    async completePayment(body: object = {}): Promise<string> {
      const created = await seller.create({ ...VALID_PAYMENT, ...body });
      if (created.status !== 200) throw new Error(`create failed: ${created.status} ${created.text}`);
      const paid = await customer.pay(created.body.data.id, '4242424242424242');
      if (paid.body.data?.submitCard?.status !== 'COMPLETED') throw new Error(`payment did not complete: ${paid.text}`);
      return created.body.data.id;
    },
  };
}

/** GraphQL as an admin or a seller (Bearer token or API key). */
export function graphqlAs(service: TestService, bearer: string) {
  return async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await request(service.url).post('/graphql').set('Authorization', `Bearer ${bearer}`).send({ query, variables });
    return res.body as { data?: Record<string, any>; errors?: { message: string; extensions: { code: string } }[] };
  };
}

/** An owner's token: owners manage shops' webhook settings (docs/admin.md). */
export async function newAdminToken(service: TestService): Promise<string> {
  const email = `ops-${Date.now()}-${Math.random().toString(36).slice(2)}@payments.example`;
  return (await createAdmin(service.em(), { email, role: AdminRole.OWNER, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS })).token;
}

/** The delivery of a payment's event, with its attempts (oldest first), once it is no longer pending (or the deadline passes). */
export async function settledDelivery(service: TestService, paymentId: string, timeoutMs = 20_000): Promise<WebhookDelivery & { attempts: WebhookAttempt[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const delivery = await service.em().findOne(WebhookDelivery, { paymentId }, { populate: ['event'] });
    if (delivery && delivery.status !== 'pending') return Object.assign(delivery, { attempts: (await attemptsOfDeliveries(service.em(), [delivery.id]))[0] });
    if (Date.now() > deadline) throw new Error(`delivery of ${paymentId} still ${delivery?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
