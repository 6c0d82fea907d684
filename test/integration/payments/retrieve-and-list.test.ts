import { Payment } from '../../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../../src/modules/payments/payment-status';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let seller: ReturnType<typeof sellerClient>;
let other: ReturnType<typeof sellerClient>;

beforeAll(async () => {
  seller = sellerClient(service.url, (await service.createShop()).apiKey);
  other = sellerClient(service.url, (await service.createShop()).apiKey);
});

describe('GET /api/v1/payments/:id', () => {
  test('returns the full payment, completed_at null while pending', async () => {
    const created = (await seller.create({ ...VALID_PAYMENT, customer_name: 'Bo', metadata: { a: 1 } })).body.data;
    const res = await seller.retrieve(created.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { ...created, completed_at: null } });
    expect(Object.keys(res.body.data).at(-1)).toBe('completed_at');
  });

  test('a completed payment carries its completion timestamp', async () => {
    const created = (await seller.create(VALID_PAYMENT)).body.data;
    const completedAt = new Date('2026-11-20T10:11:12.345Z');
    await service.em().nativeUpdate(Payment, { id: created.id }, { status: PaymentStatus.COMPLETED, completedAt });
    const res = await seller.retrieve(created.id);
    expect(res.body.data).toMatchObject({ status: 'completed', completed_at: '2026-11-20T10:11:12.345Z' });
  });

  test.each([
    ['another shop owns it', async () => (await seller.create(VALID_PAYMENT)).body.data.id, () => other],
    ['unknown id', async () => 'pay_000000000000000000000000', () => seller],
    ['malformed id', async () => 'pay_<script>', () => seller],
    ['not a payment id at all', async () => "1' or '1'='1", () => seller],
  ])('%s -> 404 Payment not found', async (_name, id, client) => {
    const res = await client().retrieve(encodeURIComponent(await id()));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Payment not found' });
  });
});

describe('GET /api/v1/payments (list)', () => {
  let lister: ReturnType<typeof sellerClient>;
  const ids: string[] = [];

  beforeAll(async () => {
    lister = sellerClient(service.url, (await service.createShop()).apiKey);
    for (let i = 0; i < 12; i++) ids.push((await lister.create({ ...VALID_PAYMENT, amount: 100 + i })).body.data.id);
  });

  test('newest first, 10 by default, with pagination', async () => {
    const res = await lister.list();
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 12, pages: 2 });
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(res.body.data[0]).toHaveProperty('completed_at', null);
  });

  test('page and limit', async () => {
    const res = await lister.list('?page=3&limit=5');
    expect(res.body.pagination).toEqual({ page: 3, limit: 5, total: 12, pages: 3 });
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([ids[1], ids[0]]);
  });

  test('a page past the end is empty, not an error', async () => {
    const res = await lister.list('?page=9');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  test('only the calling shop\'s payments are listed', async () => {
    const res = await other.list('?limit=100');
    expect(res.body.data.some((p: { id: string }) => ids.includes(p.id))).toBe(false);
  });

  test('status filter', async () => {
    await service.em().nativeUpdate(Payment, { id: ids[3] }, { status: PaymentStatus.FAILED });
    const res = await lister.list('?status=failed');
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([ids[3]]);
    expect(res.body.pagination.total).toBe(1);
  });

  test.each([
    ['?page=0', 'page must be a positive integer'],
    ['?page=-1', 'page must be a positive integer'],
    ['?page=abc', 'page must be a positive integer'],
    ['?page=1.5', 'page must be a positive integer'],
    ['?page=1&page=2', 'page must be a positive integer'],
    ['?limit=0', 'limit must be an integer from 1 to 100'],
    ['?limit=101', 'limit must be an integer from 1 to 100'],
    ['?limit=ten', 'limit must be an integer from 1 to 100'],
    ['?status=paid', 'status must be one of: pending, completed, failed, refunded'],
    ['?status=PENDING', 'status must be one of: pending, completed, failed, refunded'],
  ])('%s -> 400 %s', async (query, message) => {
    const res = await lister.list(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  test('limit=100 is allowed', async () => {
    expect((await lister.list('?limit=100')).body.pagination.limit).toBe(100);
  });
});
