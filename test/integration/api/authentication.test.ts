import request from 'supertest';
import { ApiKey } from '../../../src/modules/identity/api-key.entity';
import { Seller, SellerStatus } from '../../../src/modules/identity/seller.entity';
import { Shop, ShopStatus } from '../../../src/modules/identity/shop.entity';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();

const get = (authorization?: string) => {
  const req = request(service.url).get('/api/v1/payments/test');
  return authorization === undefined ? req : req.set('Authorization', authorization);
};

/** Changes a shop, seller or key as the lifecycle operations do: in the database, then the credential cache. */
async function update<T extends object>(entity: new () => T, where: object, data: Partial<T>, shopId: string) {
  await service.em().nativeUpdate(entity as never, where as never, data as never);
  await service.services.credentials.invalidateShop(shopId);
}

describe('spec, Authentication', () => {
  test('no Authorization header -> 401 API key required', async () => {
    const res = await get();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'API key required' });
  });

  test.each([
    ['not a Bearer scheme', 'Basic c3ZjOmxpdmU='],
    ['Bearer without a key', 'Bearer '],
    ['wrong prefix', `Bearer svc_test_${'a'.repeat(64)}`],
    ['63 hex characters', `Bearer svc_live_${'a'.repeat(63)}`],
    ['uppercase hex', `Bearer svc_live_${'A'.repeat(64)}`],
    ['non-hex characters', `Bearer svc_live_${'g'.repeat(64)}`],
    ['well-formed but unknown', `Bearer svc_live_${'0'.repeat(64)}`],
  ])('%s -> 401 Invalid API key', async (_name, header) => {
    const res = await get(header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Invalid API key' });
  });

  test('a working key -> 200 naming the shop', async () => {
    const { apiKey, shop } = await service.createShop({ shopName: 'Corner Bakery' });
    const res = await sellerClient(service.url, apiKey).test();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { authenticated: true, mode: 'live', shop: { id: shop.id, shop_name: 'Corner Bakery' } } });
  });

  test('the key is stored only as a SHA-256 hash', async () => {
    const { apiKey, shop } = await service.createShop();
    expect(apiKey).toMatch(/^svc_live_[0-9a-f]{64}$/);
    const rows = await service.em().getConnection().execute('select * from api_keys where shop_id = ?', [shop.id]);
    expect(JSON.stringify(rows)).not.toContain(apiKey.slice(9));
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a deleted shop: its key stops working at once -> 401 Invalid API key', async () => {
    const { apiKey, shop } = await service.createShop();
    expect((await sellerClient(service.url, apiKey).test()).status).toBe(200);
    await update(Shop, { id: shop.id }, { deletedAt: new Date() }, shop.id);
    const res = await sellerClient(service.url, apiKey).test();
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Invalid API key');
  });

  test('a revoked key -> 401 Invalid API key', async () => {
    const { apiKey, shop } = await service.createShop();
    await update(ApiKey, { shop: shop.id }, { revokedAt: new Date() }, shop.id);
    expect((await sellerClient(service.url, apiKey).test()).body.error).toBe('Invalid API key');
  });

  test('an inactive shop -> 401 Shop is inactive, on every endpoint', async () => {
    const { apiKey, shop } = await service.createShop();
    await update(Shop, { id: shop.id }, { status: ShopStatus.INACTIVE }, shop.id);
    const client = sellerClient(service.url, apiKey);
    for (const res of [await client.test(), await client.create(VALID_PAYMENT), await client.list()]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'Shop is inactive' });
    }
  });

  test.each([SellerStatus.INACTIVE, SellerStatus.SUSPENDED])('a %s seller -> 403 Seller account inactive', async (status) => {
    const { apiKey, seller, shop } = await service.createShop();
    expect((await sellerClient(service.url, apiKey).test()).status).toBe(200);
    await update(Seller, { id: seller.id }, { status }, shop.id);
    const res = await sellerClient(service.url, apiKey).create(VALID_PAYMENT);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: 'Seller account inactive' });
  });

  test('authentication comes before the body: a bad body without a key is 401, not 400', async () => {
    const res = await request(service.url).post('/api/v1/payments').set('Content-Type', 'application/json').send('{oops');
    expect(res.status).toBe(401);
  });

  test('"bearer" is accepted in any letter case, as RFC 7235 says', async () => {
    const { apiKey } = await service.createShop();
    expect((await get(`bearer ${apiKey}`)).status).toBe(200);
  });
});
