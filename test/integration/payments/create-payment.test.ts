import request from 'supertest';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let seller: ReturnType<typeof sellerClient>;
let apiKey: string;

beforeAll(async () => {
  apiKey = (await service.createShop()).apiKey;
  seller = sellerClient(service.url, apiKey);
});

describe('POST /api/v1/payments', () => {
  test('a valid request creates a pending payment with exactly the spec fields', async () => {
    const res = await seller.create({
      ...VALID_PAYMENT,
      customer_email: 'ann@example.com',
      customer_name: 'Ann Lee',
      metadata: { order_id: 'A-1', gift: true, qty: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual([
      'id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at',
    ]);
    expect(data.id).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(data).toMatchObject({
      amount: 1234,
      currency: 'usd',
      status: 'pending',
      checkout_url: `https://pay.example.test/checkout/${data.id}`,
      customer_email: 'ann@example.com',
      customer_name: 'Ann Lee',
      metadata: { order_id: 'A-1', gift: true, qty: 2 },
    });
    expect(data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
    expect(Math.abs(Date.parse(data.created_at) - Date.now())).toBeLessThan(60_000);
  });

  test('optional customer fields are null when not sent; metadata is {}', async () => {
    const res = await seller.create(VALID_PAYMENT);
    expect(res.body.data).toMatchObject({ customer_email: null, customer_name: null, metadata: {} });
  });

  test('metadata keeps the key order it was sent in', async () => {
    const res = await seller.createRaw('{"amount":100,"currency":"usd","return_url":"https://a.example/","metadata":{"zeta":"1","alpha":"2","mid":3}}');
    expect(res.text).toContain('"metadata":{"zeta":"1","alpha":"2","mid":3}');
  });

  test('integer-like metadata keys come first, in ascending numeric order (the documented exception), in create and retrieve alike', async () => {
    const metadata = '{"zeta":"1","10":"a","alpha":2,"2":"b","01":"c","-1":"d","4294967295":"e","4294967294":"f","1.5":"g"}';
    const echoed = '{"2":"b","10":"a","4294967294":"f","zeta":"1","alpha":2,"01":"c","-1":"d","4294967295":"e","1.5":"g"}';
    const res = await seller.createRaw(`{"amount":100,"currency":"usd","return_url":"https://a.example/","metadata":${metadata}}`);
    expect(res.text).toContain(`"metadata":${echoed}`);
    const read = await seller.retrieve(res.body.data.id);
    expect(read.text).toContain(`"metadata":${echoed}`);
  });

  test('ids are unique and unguessable (24 base62 characters, about 143 bits)', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => seller.create(VALID_PAYMENT).then((r) => r.body.data.id)));
    expect(new Set(ids).size).toBe(20);
  });

  test('a decimal amount with a zero fraction (50.00) is read as 50 cents', async () => {
    const res = await seller.createRaw('{"amount":50.00,"currency":"usd","return_url":"https://a.example/"}');
    expect(res.status).toBe(200);
    expect(res.body.data.amount).toBe(50);
  });
});

describe('the spec Errors table, byte for byte', () => {
  const cases: [string, object, string][] = [
    ['amount below 50', { ...VALID_PAYMENT, amount: 49 }, 'Amount must be at least 50 cents'],
    ['amount zero', { ...VALID_PAYMENT, amount: 0 }, 'Amount must be at least 50 cents'],
    ['negative amount', { ...VALID_PAYMENT, amount: -100 }, 'Amount must be at least 50 cents'],
    ['other currency', { ...VALID_PAYMENT, currency: 'eur' }, "Currency must be 'usd'"],
    ['currency in capitals', { ...VALID_PAYMENT, currency: 'USD' }, "Currency must be 'usd'"],
    ['return_url missing', { amount: 100, currency: 'usd' }, 'Return URL is required'],
    ['return_url empty', { ...VALID_PAYMENT, return_url: '' }, 'Return URL is required'],
    ['return_url http', { ...VALID_PAYMENT, return_url: 'http://shop.example.com/' }, 'Return URL must be a valid HTTPS URL'],
    ['return_url not a URL', { ...VALID_PAYMENT, return_url: 'not a url' }, 'Return URL must be a valid HTTPS URL'],
    ['return_url javascript:', { ...VALID_PAYMENT, return_url: 'javascript:alert(1)' }, 'Return URL must be a valid HTTPS URL'],
    ['return_url with credentials', { ...VALID_PAYMENT, return_url: 'https://user:pw@shop.example.com/' }, 'Return URL must be a valid HTTPS URL'],
    ['51 metadata keys', { ...VALID_PAYMENT, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'Metadata cannot exceed 50 keys'],
    ['amount missing', { currency: 'usd', return_url: 'https://a.example/' }, 'Missing required field: amount'],
    ['amount null', { amount: null, currency: 'usd', return_url: 'https://a.example/' }, 'Missing required field: amount'],
    ['currency missing', { amount: 100, return_url: 'https://a.example/' }, 'Missing required field: currency'],
    ['empty object', {}, 'Missing required field: amount'],
  ];
  test.each(cases)('%s -> 400 %j', async (_name, body, message) => {
    const res = await seller.create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  test('exactly 50 metadata keys are accepted', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect((await seller.create({ ...VALID_PAYMENT, metadata })).status).toBe(200);
  });
});

describe('choices where the spec says "not shown"', () => {
  const cases: [string, object, string][] = [
    ['amount with a fraction', { ...VALID_PAYMENT, amount: 50.5 }, 'Amount must be an integer number of cents'],
    ['amount as a string', { ...VALID_PAYMENT, amount: '100' }, 'Amount must be an integer number of cents'],
    ['amount as a boolean', { ...VALID_PAYMENT, amount: true }, 'Amount must be an integer number of cents'],
    ['amount beyond 2^53', { ...VALID_PAYMENT, amount: 2 ** 60 }, 'Amount must be an integer number of cents'],
    ['currency as a number', { ...VALID_PAYMENT, currency: 840 }, 'Field currency must be a string'],
    ['return_url as an object', { ...VALID_PAYMENT, return_url: { href: 'https://a.example' } }, 'Field return_url must be a string'],
    ['return_url over 2048 characters', { ...VALID_PAYMENT, return_url: `https://a.example/${'x'.repeat(2040)}` }, 'Return URL cannot exceed 2048 characters'],
    ['invalid customer_email', { ...VALID_PAYMENT, customer_email: 'not-an-email' }, 'Customer email must be a valid email address'],
    ['customer_email over 254 characters', { ...VALID_PAYMENT, customer_email: `${'a'.repeat(250)}@example.com` }, 'Customer email must be a valid email address'],
    ['customer_name over 200 characters', { ...VALID_PAYMENT, customer_name: 'n'.repeat(201) }, 'Customer name must be 1 to 200 characters'],
    ['customer_name blank', { ...VALID_PAYMENT, customer_name: '   ' }, 'Customer name must be 1 to 200 characters'],
    ['customer_name as a number', { ...VALID_PAYMENT, customer_name: 7 }, 'Field customer_name must be a string'],
    ['metadata as an array', { ...VALID_PAYMENT, metadata: ['a'] }, 'Metadata must be a JSON object'],
    ['metadata as a string', { ...VALID_PAYMENT, metadata: 'x' }, 'Metadata must be a JSON object'],
    ['nested metadata', { ...VALID_PAYMENT, metadata: { a: { b: 1 } } }, 'Metadata values must be strings, numbers or booleans'],
    ['null metadata value', { ...VALID_PAYMENT, metadata: { a: null } }, 'Metadata values must be strings, numbers or booleans'],
    ['metadata key over 40 characters', { ...VALID_PAYMENT, metadata: { ['k'.repeat(41)]: 'v' } }, 'Metadata keys must be 1 to 40 characters'],
    ['metadata over 5KB', { ...VALID_PAYMENT, metadata: { a: 'x'.repeat(5200) } }, 'Metadata cannot exceed 5KB'],
    ['body is an array', [VALID_PAYMENT], 'Request body must be a JSON object'],
  ];
  test.each(cases)('%s -> 400 %j', async (_name, body, message) => {
    const res = await seller.create(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  test('a 200-character name and a 5KB metadata object are accepted', async () => {
    const metadata = { a: 'x'.repeat(5 * 1024 - 10) };
    const res = await seller.create({ ...VALID_PAYMENT, customer_name: 'é'.repeat(200), metadata });
    expect(res.status).toBe(200);
  });

  test('malformed JSON -> 400', async () => {
    const res = await seller.createRaw('{"amount": 100,');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Request body must be valid JSON' });
  });

  test('a JSON scalar body -> 400 not an object', async () => {
    const res = await seller.createRaw('42');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: 'Request body must be a JSON object' });
  });

  test('wrong Content-Type -> 415', async () => {
    const res = await request(service.url)
      .post('/api/v1/payments')
      .set('Authorization', `Bearer ${apiKey}`)
      .set('Content-Type', 'text/plain')
      .send(JSON.stringify(VALID_PAYMENT));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, error: 'Content-Type must be application/json' });
  });

  test('form-encoded body -> 415', async () => {
    const res = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${apiKey}`).type('form').send({ amount: '100' });
    expect(res.status).toBe(415);
  });

  test('a body over 64KB -> 413', async () => {
    const res = await seller.create({ ...VALID_PAYMENT, padding: 'x'.repeat(70 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, error: 'Request body cannot exceed 64KB' });
  });

  test('parameters outside the create list (success_url, description) are ignored', async () => {
    const res = await seller.create({ ...VALID_PAYMENT, success_url: 'https://x.example', description: 'd' });
    expect(res.status).toBe(200);
    expect(res.body.data).not.toHaveProperty('success_url');
  });
});
