import { PaymentStatus } from '../../../modules/payments';

/** Sample answers shown in the document; test/integration/api/openapi.test.ts checks each against its schema. */

export const EXAMPLE_PAYMENT = {
  id: 'pay_3kTMd2mXq8uV0aRbWc5pLs7e',
  amount: 1234,
  currency: 'usd',
  status: PaymentStatus.PENDING,
  checkout_url: 'https://pay.example.com/checkout/pay_3kTMd2mXq8uV0aRbWc5pLs7e',
  customer_email: 'ann@example.com',
  customer_name: null,
  metadata: { order_id: '42' },
  created_at: '2026-11-23T10:00:00.000Z',
};

export const EXAMPLE_COMPLETED = { ...EXAMPLE_PAYMENT, status: PaymentStatus.COMPLETED, completed_at: '2026-11-23T10:01:02.345Z' };

export const EXAMPLE_SHOP = { id: 'shop_8aTzQe1LmN0pR5sV', shop_name: 'Corner Bakery' };

export const EXAMPLE_CREATE_BODIES = {
  minimal: { summary: 'Required fields only', value: { amount: 50, currency: 'usd', return_url: 'https://shop.example.com/thanks' } },
  full: {
    summary: 'Every field',
    value: {
      amount: 1234,
      currency: 'usd',
      return_url: 'https://shop.example.com/thanks',
      customer_email: 'ann@example.com',
      customer_name: 'Ann Lee',
      metadata: { order_id: '42', gift: true },
    },
  },
};
