import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { createAdmin } from '../../src/modules/admins/admin.service';
import { setPayoutAccount } from '../../src/modules/withdrawals/payout-account';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../src/shared/config';
import { checkoutClient } from './checkout-client';
import { sellerClient, VALID_PAYMENT } from './seller-client';
import type { TestService } from './test-service';

export interface GraphQLAnswer<T = any> {
  status: number;
  data: T;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** POSTs one GraphQL document to /graphql with the given Authorization (none when undefined). */
export async function graphql<T = any>(baseUrl: string, authorization: string | undefined, query: string, variables: Record<string, unknown> = {}): Promise<GraphQLAnswer<T>> {
  const req = request(baseUrl).post('/graphql').set('Content-Type', 'application/json');
  if (authorization !== undefined) req.set('Authorization', authorization);
  const res = await req.send({ query, variables });
  return { status: res.status, data: res.body.data, errors: res.body.errors };
}

/** A new admin with `role` (created as the CLI does) and a client that sends its token. */
export async function adminClient(service: TestService, role: AdminRole = AdminRole.OWNER) {
  const email = `${role}-${randomBytes(5).toString('hex')}@payments.example`;
  const { admin, token } = await createAdmin(service.em(), { email, role, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS });
  const run = <T = any>(query: string, variables: Record<string, unknown> = {}) => graphql<T>(service.url, `Bearer ${token}`, query, variables);
  /** Runs and insists on success: answers `data`. */
  const ok = async <T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const answer = await run<T>(query, variables);
    if (answer.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(answer.errors)}`);
    return answer.data;
  };
  return { admin, token, run, ok };
}

export type AdminClient = Awaited<ReturnType<typeof adminClient>>;

/** One admin of each role: support records requests, finance decides, the owner manages shops. */
export async function adminTeam(service: TestService) {
  return {
    support: await adminClient(service, AdminRole.SUPPORT),
    finance: await adminClient(service, AdminRole.FINANCE),
    owner: await adminClient(service, AdminRole.OWNER),
  };
}

/**
 * Saves the payout account every withdrawal needs, whoever asks for it, through the module's own write (the seller
 * is mailed the change, as from the dashboard).
 */
export async function givePayoutAccount(service: TestService, sellerId: string): Promise<void> {
  await setPayoutAccount(service.em(), service.services.accounts.secrets, sellerId, 'Test Payouts Ltd', 'DE89370400440532013000');
}

/** A new shop whose seller has a payout account: one that may ask for withdrawals. */
export async function payableShop(service: TestService, overrides?: Parameters<TestService['createShop']>[0]) {
  const shop = await service.createShop(overrides);
  await givePayoutAccount(service, shop.seller.id);
  return shop;
}

/** A shop with one completed payment of `amount` cents, paid through the public checkout. */
export async function completedPayment(service: TestService, amount = 1000, shop?: Awaited<ReturnType<TestService['createShop']>>) {
  const owner = shop ?? (await service.createShop());
  const seller = sellerClient(service.url, owner.apiKey);
  const created = await seller.create({ ...VALID_PAYMENT, amount });
  if (created.status !== 200) throw new Error(`create answered ${created.status}`);
  const id = created.body.data.id as string;
  const paid = await checkoutClient(service.url).pay(id, '4242424242424242');
  if (paid.body.data?.submitCard?.status !== 'COMPLETED') throw new Error(`payment not completed: ${JSON.stringify(paid.body)}`);
  return { shop: owner, seller, paymentId: id };
}

/** Polls `probe`, `intervalMs` apart, until it answers something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, timeoutMs = 10_000, what = 'condition', intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
