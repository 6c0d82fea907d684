import { adminClient, eventually } from '../../support/admin-client';
import { sellerClient } from '../../support/seller-client';
import { useTestService, type TestService } from '../../support/test-service';

// Two instances sharing one Redis namespace: the other's API-key cache must hear of every change too.
const namespace = `admin-shops-${Date.now()}`;
const service = useTestService({}, namespace);
const other = useTestService({}, namespace);
let admin: Awaited<ReturnType<typeof adminClient>>;

beforeAll(async () => {
  admin = await adminClient(service);
});

const CREATE = `mutation ($email: String!, $shop: ShopInput!) {
  createSellerWithShop(email: $email, shop: $shop) { seller { id email status } shop { id name status webhookUrl } apiKey webhookSecret }
}`;
const CREATE_SHOP = `mutation ($sellerId: ID!, $shop: ShopInput!) { createShop(sellerId: $sellerId, shop: $shop) { shop { id name } apiKey webhookSecret } }`;
const DEACTIVATE = `mutation ($id: ID!, $reason: String) { deactivateShop(id: $id, reason: $reason) { id status } }`;
const REACTIVATE = `mutation ($id: ID!) { reactivateShop(id: $id) { id status } }`;
const DELETE = `mutation ($id: ID!, $reason: String!) { deleteShop(id: $id, reason: $reason) { id deletedAt } }`;
const SUSPEND = `mutation ($id: ID!, $reason: String!) { suspendSeller(id: $id, reason: $reason) { id status } }`;
const UNSUSPEND = `mutation ($id: ID!) { reactivateSeller(id: $id) { id status } }`;

let counter = 0;
async function newSeller(shopName = 'Corner Bakery') {
  const email = `owner-${Date.now()}-${counter++}@shop.example`;
  const { createSellerWithShop } = await admin.ok(CREATE, { email, shop: { shopName } });
  return { ...createSellerWithShop, email };
}

const answerOf = async (instance: TestService, apiKey: string) => {
  const res = await sellerClient(instance.url, apiKey).test();
  return [res.status, res.body.error ?? 'ok'];
};

/**
 * `GET /api/v1/payments/test` with the key: on the instance that took the admin action, at once; on the
 * other instance as soon as the Redis message arrives (well under a second).
 */
async function expectKey(apiKey: string, expected: [number, string]) {
  expect(await answerOf(service, apiKey)).toEqual(expected);
  await eventually(async () => JSON.stringify(await answerOf(other, apiKey)) === JSON.stringify(expected), 2000, `the other instance to answer ${expected}`);
}

describe('creating a seller and its shop', () => {
  test('the key and webhook secret are shown in that answer, and the key works at once', async () => {
    const created = await newSeller('Kiosk');
    expect(created.apiKey).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(created.webhookSecret).toMatch(/^whsec_/);
    expect(created.seller.status).toBe('ACTIVE');
    expect(created.shop).toMatchObject({ name: 'Kiosk', status: 'ACTIVE', webhookUrl: null });
    const res = await sellerClient(service.url, created.apiKey).test();
    expect(res.body.data.shop).toEqual({ id: created.shop.id, shop_name: 'Kiosk' });

    // Never again: the shop's fields do not include them.
    const shop = await admin.run(`query ($id: ID!) { shop(id: $id) { id apiKey } }`, { id: created.shop.id });
    expect(shop.errors?.[0].message).toMatch(/Cannot query field "apiKey"/);
  });

  test.each([
    [{ email: 'not-an-email', shop: { shopName: 'X' } }, 'Email must be a valid email address'],
    [{ email: 'ok@shop.example', shop: { shopName: '  ' } }, 'Shop name must be 1 to 200 characters'],
    [{ email: 'ok2@shop.example', shop: { shopName: 'X', webhookUrl: 'http://insecure.example/hook' } }, 'Webhook URL must be a valid HTTPS URL without credentials'],
  ])('%j -> %s', async (variables, message) => {
    expect((await admin.run(CREATE, variables)).errors?.[0].message).toBe(message);
  });

  test('an e-mail address already registered -> 409', async () => {
    const { email } = await newSeller();
    const again = await admin.run(CREATE, { email, shop: { shopName: 'Second' } });
    expect(again.errors?.[0]).toMatchObject({ message: 'That email address is already registered', extensions: { code: 'EMAIL_TAKEN' } });
  });

  test('a second live shop for one seller is refused; after the first is deleted a new one (new key) is allowed', async () => {
    const first = await newSeller();
    const second = await admin.run(CREATE_SHOP, { sellerId: first.seller.id, shop: { shopName: 'Second' } });
    expect(second.errors?.[0]).toMatchObject({ message: 'This seller already has a shop (one shop per seller account)', extensions: { code: 'SELLER_ALREADY_HAS_SHOP' } });

    await admin.ok(DELETE, { id: first.shop.id, reason: 'Key leaked: replacing the shop' });
    const replacement = (await admin.ok(CREATE_SHOP, { sellerId: first.seller.id, shop: { shopName: 'Replacement' } })).createShop;
    await expectKey(first.apiKey, [401, 'Invalid API key']);
    await expectKey(replacement.apiKey, [200, 'ok']);
  });
});

describe("life-cycle actions give the seller's key exactly the spec's answers, at once, on every instance", () => {
  test('deactivate -> 401 Shop is inactive; reactivate -> 200', async () => {
    const { shop, apiKey } = await newSeller();
    await expectKey(apiKey, [200, 'ok']); // both caches now hold the key
    expect((await admin.run(DEACTIVATE, { id: shop.id })).errors?.[0].extensions?.code).toBe('REASON_REQUIRED');
    expect((await admin.ok(DEACTIVATE, { id: shop.id, reason: 'Chargeback review' })).deactivateShop.status).toBe('INACTIVE');
    await expectKey(apiKey, [401, 'Shop is inactive']);
    expect((await admin.ok(REACTIVATE, { id: shop.id })).reactivateShop.status).toBe('ACTIVE');
    await expectKey(apiKey, [200, 'ok']);
  });

  test('delete -> 401 Invalid API key for good; the deleted shop cannot be reactivated', async () => {
    const { shop, apiKey } = await newSeller();
    await expectKey(apiKey, [200, 'ok']);
    const deleted = (await admin.ok(DELETE, { id: shop.id, reason: 'Seller closed the business' })).deleteShop;
    expect(deleted.deletedAt).not.toBeNull();
    await expectKey(apiKey, [401, 'Invalid API key']);
    expect((await admin.run(REACTIVATE, { id: shop.id })).errors?.[0]).toMatchObject({ message: 'Shop is deleted', extensions: { code: 'SHOP_DELETED' } });
    expect((await admin.run(DELETE, { id: shop.id, reason: 'again' })).errors?.[0].message).toBe('Shop is deleted');
  });

  test('suspend the seller -> 403 Seller account inactive; reactivate -> 200', async () => {
    const { seller, apiKey } = await newSeller();
    await expectKey(apiKey, [200, 'ok']);
    expect((await admin.ok(SUSPEND, { id: seller.id, reason: 'Fraud investigation' })).suspendSeller.status).toBe('SUSPENDED');
    await expectKey(apiKey, [403, 'Seller account inactive']);
    expect((await admin.ok(UNSUSPEND, { id: seller.id })).reactivateSeller.status).toBe('ACTIVE');
    await expectKey(apiKey, [200, 'ok']);
  });

  test('every endpoint answers the same, not only /test', async () => {
    const { shop, apiKey } = await newSeller();
    await admin.ok(DEACTIVATE, { id: shop.id, reason: 'paused' });
    const client = sellerClient(service.url, apiKey);
    for (const res of [await client.list(), await client.create({ amount: 100, currency: 'usd', return_url: 'https://x.example' }), await client.retrieve('pay_x')]) {
      expect([res.status, res.body]).toEqual([401, { success: false, error: 'Shop is inactive' }]);
    }
  });

  test.each([
    [DEACTIVATE, { id: 'shop_nope', reason: 'x' }, 'Shop not found'],
    [DELETE, { id: 'shop_nope', reason: 'x' }, 'Shop not found'],
    [SUSPEND, { id: 'sel_nope', reason: 'x' }, 'Seller not found'],
    [CREATE_SHOP, { sellerId: 'sel_nope', shop: { shopName: 'X' } }, 'Seller not found'],
  ])('unknown targets -> %#', async (query, variables, message) => {
    expect((await admin.run(query, variables)).errors?.[0].message).toBe(message);
  });
});

describe('finding shops', () => {
  test('by name or seller e-mail, with the seller and its balance', async () => {
    const { shop, email } = await newSeller('Unusual Teapots');
    const found = await admin.ok(`query ($s: String) { shops(search: $s) { items { id name seller { email } balance { available } } pagination { total } } }`, { s: 'unusual tea' });
    expect(found.shops.items).toEqual([{ id: shop.id, name: 'Unusual Teapots', seller: { email }, balance: { available: 0 } }]);
    const byEmail = await admin.ok(`query ($s: String) { shops(search: $s) { items { id } } }`, { s: email.toUpperCase() });
    expect(byEmail.shops.items).toEqual([{ id: shop.id }]);
  });

  test('deleted shops only when asked', async () => {
    const { shop, email } = await newSeller('Gone Shop');
    await admin.ok(DELETE, { id: shop.id, reason: 'closed' });
    const q = `query ($s: String, $d: Boolean) { shops(search: $s, includeDeleted: $d) { items { id deletedAt } } }`;
    expect((await admin.ok(q, { s: email })).shops.items).toEqual([]);
    expect((await admin.ok(q, { s: email, d: true })).shops.items).toEqual([{ id: shop.id, deletedAt: expect.any(String) }]);
    const seller = await admin.ok(`query ($id: ID!) { shop(id: $id) { seller { id email shop { id } } } }`, { id: shop.id });
    expect(seller.shop.seller).toMatchObject({ email, shop: null });
  });
});
