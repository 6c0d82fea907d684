import { Shop, ShopStatus } from '../../../src/modules/identity/shop.entity';
import { sellerClient } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const a = useTestService({}, 'shared-credentials');
const b = useTestService({}, 'shared-credentials');

test('API keys are served from each instance cache, and an invalidation on one instance reaches the other at once', async () => {
  const { apiKey, shop } = await a.createShop();
  let refused;
  expect((await sellerClient(a.url, apiKey).test()).status).toBe(200);
  expect((await sellerClient(b.url, apiKey).test()).status).toBe(200);

  // A change without invalidation is not seen: the key is answered from the cache, not the database.
  await a.em().nativeUpdate(Shop, { id: shop.id }, { status: ShopStatus.INACTIVE });
  expect((await sellerClient(b.url, apiKey).test()).status).toBe(200);

  await a.services.credentials.invalidateShop(shop.id);
  // Pub/sub delivery on loopback takes milliseconds; allow up to 2 s on a loaded machine.
  refused = await sellerClient(b.url, apiKey).test();
  for (let waited = 0; refused.status === 200 && waited < 2000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    refused = await sellerClient(b.url, apiKey).test();
  }
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ success: false, error: 'Shop is inactive' });
  expect((await sellerClient(a.url, apiKey).test()).body.error).toBe('Shop is inactive');
});
