import { IdempotencyRecord } from '../../../src/modules/payments/idempotency-record.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000' });
let seller: ReturnType<typeof sellerClient>;
let shopId: string;

beforeAll(async () => {
  const shop = await service.createShop();
  shopId = shop.shop.id;
  seller = sellerClient(service.url, shop.apiKey);
});

const countPayments = () => service.em().count(Payment, { shop: shopId });
let keyCounter = 0;
const newKey = () => `order-${Date.now()}-${keyCounter++}`;

describe('Idempotency-Key on create', () => {
  test('the same key and body replays the first answer byte for byte, marked Idempotent-Replayed', async () => {
    const key = newKey();
    const body = { ...VALID_PAYMENT, metadata: { z: 1, a: 'x' } };
    const first = await seller.create(body, { 'Idempotency-Key': key });
    const before = await countPayments();
    const second = await seller.create(body, { 'Idempotency-Key': key });
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPayments()).toBe(before);
  });

  test('a replay still answers what was first answered after the payment moved on', async () => {
    const key = newKey();
    const first = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    await service.em().nativeUpdate(Payment, { id: first.body.data.id }, { status: 'completed' as never, completedAt: new Date() });
    const second = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    expect(second.text).toBe(first.text);
  });

  test('the same key with a different body -> 422 naming the differing fields', async () => {
    const key = newKey();
    await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    const res = await seller.create({ ...VALID_PAYMENT, amount: 999, metadata: { a: 1 } }, { 'Idempotency-Key': key });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, error: 'Idempotency-Key was already used with different parameters: amount, metadata' });
  });

  test('metadata with the same pairs in another order is the same request', async () => {
    const key = newKey();
    await seller.create({ ...VALID_PAYMENT, metadata: { a: 1, b: 2 } }, { 'Idempotency-Key': key });
    const res = await seller.create({ ...VALID_PAYMENT, metadata: { b: 2, a: 1 } }, { 'Idempotency-Key': key });
    expect(res.status).toBe(200);
    expect(res.headers['idempotent-replayed']).toBe('true');
  });

  test('keys are scoped per shop: another shop may use the same key', async () => {
    const key = newKey();
    const mine = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    const theirs = await sellerClient(service.url, (await service.createShop()).apiKey).create(VALID_PAYMENT, { 'Idempotency-Key': key });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  test('a key over 255 characters -> 400; 255 is fine', async () => {
    const tooLong = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ success: false, error: 'Idempotency-Key must be 1 to 255 characters' });
    expect((await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'k'.repeat(255) })).status).toBe(200);
  });

  test('a request that fails validation is not remembered', async () => {
    const key = newKey();
    const bad = await seller.create({ ...VALID_PAYMENT, amount: 10 }, { 'Idempotency-Key': key });
    expect(bad.status).toBe(400);
    const good = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    expect(good.status).toBe(200);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  test('after 24 hours the key is forgotten and creates a new payment', async () => {
    const key = newKey();
    const first = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    await service.em().nativeUpdate(IdempotencyRecord, { key }, { createdAt: new Date(Date.now() - 24 * 3600 * 1000 - 1000) });
    const second = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    expect(second.status).toBe(200);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  test('25 concurrent requests with one key create exactly one payment; the rest replay it or get 409', async () => {
    const key = newKey();
    const before = await countPayments();
    const answers = await Promise.all(Array.from({ length: 25 }, () => seller.create(VALID_PAYMENT, { 'Idempotency-Key': key })));
    expect(await countPayments()).toBe(before + 1);
    const ok = answers.filter((r) => r.status === 200);
    const inFlight = answers.filter((r) => r.status === 409);
    expect(ok.length + inFlight.length).toBe(25);
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(1);
    expect(ok.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const r of inFlight) {
      expect(r.body).toEqual({ success: false, error: 'A request with this Idempotency-Key is still being processed. Retry shortly.' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    const retried = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key });
    expect(retried.body.data.id).toBe(ok[0].body.data.id);
  });

  test('the database refuses a second record for one (shop, key), whatever the code does', async () => {
    const key = newKey();
    const payment = (await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key })).body.data;
    const insert = service.em().getConnection().execute(
      `insert into idempotency_records (shop_id, key, request, response, payment_id) values (?, ?, '{}', '{}', ?)`,
      [shopId, key, payment.id],
    );
    await expect(insert).rejects.toThrow(/idempotency_records_shop_key_unique/);
  });
});
