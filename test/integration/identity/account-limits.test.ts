import { adminClient, eventually, type AdminClient } from '../../support/admin-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService, type TestService } from '../../support/test-service';
import { AdminRole } from '../../../src/modules/admins/admin-role';

// The defaults (new: 100000 cents, verified: none, restricted: 10000), not the test suite's lifted ones;
// a second instance sharing Redis must hear of a status change through the credential cache too.
const defaults = { PAYMENT_MAX_CENTS_NEW: '', PAYMENT_MAX_CENTS_RESTRICTED: '' };
const namespace = `account-limits-${Date.now()}`;
const service = useTestService(defaults, namespace);
const other = useTestService(defaults, namespace);
let owner: AdminClient;

beforeAll(async () => {
  owner = await adminClient(service);
});

const SET = `mutation ($id: ID!, $status: AccountStatus!, $reason: String!) {
  setSellerAccountStatus(id: $id, accountStatus: $status, reason: $reason) { id accountStatus status }
}`;
const LOG = `query { auditLog(limit: 100) { items { action targetId reason details } } }`;

async function newSeller() {
  const created = await owner.ok(`mutation ($email: String!) { createSellerWithShop(email: $email, shop: { shopName: "Limits" }) { seller { id accountStatus } apiKey } }`, {
    email: `limits-${Date.now()}-${Math.random().toString(36).slice(2)}@shop.example`,
  });
  return created.createSellerWithShop as { seller: { id: string; accountStatus: string }; apiKey: string };
}

const createOf = (instance: TestService, apiKey: string, amount: number) => sellerClient(instance.url, apiKey).create({ ...VALID_PAYMENT, amount });

describe('payment maximums by seller account status', () => {
  test('a create above a new seller\'s maximum is refused 400, and the same amount passes once the seller is verified', async () => {
    const { seller, apiKey } = await newSeller();
    expect(seller.accountStatus).toBe('NEW');
    expect((await createOf(service, apiKey, 100_000)).status).toBe(200);

    const refused = await createOf(service, apiKey, 100_001);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: 'Amount cannot exceed 100000 cents for this seller account' });
    // The other instance caches the key as `new` now.
    expect((await createOf(other, apiKey, 100_001)).status).toBe(400);

    const changed = await owner.ok(SET, { id: seller.id, status: 'VERIFIED', reason: 'identity documents checked' });
    expect(changed.setSellerAccountStatus).toEqual({ id: seller.id, accountStatus: 'VERIFIED', status: 'ACTIVE' });
    // The key's cached credential was invalidated: the next create sees the new status, on both instances.
    expect((await createOf(service, apiKey, 100_001)).status).toBe(200);
    await eventually(async () => (await createOf(other, apiKey, 5_000_000)).status === 200, 3000, 'the other instance to see the verified status');

    const entry = (await owner.ok(LOG)).auditLog.items.find((e: { action: string; targetId: string }) => e.action === 'seller.account_status_changed' && e.targetId === seller.id);
    expect(entry).toEqual({ action: 'seller.account_status_changed', targetId: seller.id, reason: 'identity documents checked', details: { before: 'new', after: 'verified' } });
  });

  test('a restricted seller is capped lower; the account status does not touch access (active/suspended)', async () => {
    const { seller, apiKey } = await newSeller();
    await owner.ok(SET, { id: seller.id, status: 'RESTRICTED', reason: 'chargebacks under review' });
    expect((await createOf(service, apiKey, 10_001)).body).toEqual({ success: false, error: 'Amount cannot exceed 10000 cents for this seller account' });
    expect((await createOf(service, apiKey, 10_000)).status).toBe(200);
    expect((await sellerClient(service.url, apiKey).test()).status).toBe(200);
  });

  test('the refusal comes before the idempotency record: the key can be used again once the amount fits', async () => {
    const { apiKey } = await newSeller();
    const client = sellerClient(service.url, apiKey);
    const key = { 'Idempotency-Key': `limit-${Date.now()}` };
    expect((await client.create({ ...VALID_PAYMENT, amount: 200_000 }, key)).status).toBe(400);
    expect((await client.create({ ...VALID_PAYMENT, amount: 90_000 }, key)).status).toBe(200);
  });

  test('only an owner admin sets it, always with a reason', async () => {
    const { seller } = await newSeller();
    const support = await adminClient(service, AdminRole.SUPPORT);
    const finance = await adminClient(service, AdminRole.FINANCE);
    for (const who of [support, finance]) {
      const answer = await who.run(SET, { id: seller.id, status: 'VERIFIED', reason: 'please' });
      expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN_ROLE');
    }
    const blank = await owner.run(SET, { id: seller.id, status: 'VERIFIED', reason: '  ' });
    expect(blank.errors?.[0].extensions?.code).toBe('REASON_REQUIRED');
    const unknown = await owner.run(SET, { id: 'sel_nope', status: 'VERIFIED', reason: 'x' });
    expect(unknown.errors?.[0].extensions?.code).toBe('SELLER_NOT_FOUND');
    const after = await owner.ok(`query ($id: ID!) { seller(id: $id) { accountStatus } }`, { id: seller.id });
    expect(after.seller.accountStatus).toBe('NEW');
  });
});
