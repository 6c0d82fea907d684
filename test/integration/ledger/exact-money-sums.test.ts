import { feeFor } from '../../../src/modules/ledger/fee';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { adminClient, completedPayment, graphql, payableShop } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/**
 * Each amount is at most 2^53-1 cents, but their sums are not. Three payments of the
 * largest amount put a balance past 2^53; it must read back exactly (it answered INTERNAL, and withdrawals
 * were checked against a rounded balance).
 */
const service = useTestService();

const MAX = Number.MAX_SAFE_INTEGER;
const NET = BigInt(MAX) - BigInt(feeFor(MAX));
const BALANCE = `query { balance { available pendingWithdrawals paidOut gross fees refunds } }`;
const REQUEST = `mutation ($amount: SafeInt!) { requestWithdrawal(amount: $amount) { id amount } }`;

test('a balance past 2^53 is exact in SQL, in code and over GraphQL; a withdrawal against it is checked exactly', async () => {
  const first = await completedPayment(service, MAX, await payableShop(service));
  await completedPayment(service, MAX, first.shop);
  await completedPayment(service, MAX, first.shop);
  const sellerId = first.shop.seller.id;
  const asSeller = (query: string, variables: Record<string, unknown> = {}) => graphql(service.url, `Bearer ${first.shop.apiKey}`, query, variables);

  expect(3n * NET).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
  expect(await sellerBalance(service.em(), sellerId)).toBe(3n * NET);

  const before = await asSeller(BALANCE);
  expect(before.errors).toBeUndefined();
  expect(before.data.balance).toEqual({
    available: String(3n * NET),
    gross: String(3n * BigInt(MAX)),
    fees: 3 * feeFor(MAX), // below 2^53: a JSON number
    pendingWithdrawals: 0,
    paidOut: 0,
    refunds: 0,
  });

  // Two withdrawals of the largest amount: their total passes 2^53 too, and the balance drops by exactly that.
  expect((await asSeller(REQUEST, { amount: MAX })).errors).toBeUndefined();
  expect((await asSeller(REQUEST, { amount: MAX })).errors).toBeUndefined();
  const after = (await asSeller(BALANCE)).data.balance;
  expect(after).toMatchObject({ available: Number(3n * NET - 2n * BigInt(MAX)), pendingWithdrawals: String(2n * BigInt(MAX)) });

  // The next refusal names the exact available balance, and admins read the same figures.
  const refused = await asSeller(REQUEST, { amount: MAX });
  expect(refused.errors?.[0].message).toBe(`Withdrawal amount exceeds the available balance of ${3n * NET - 2n * BigInt(MAX)} cents`);
  const admin = await adminClient(service);
  const shops = await admin.ok(`query ($id: ID) { balance(shopId: $id) { gross } }`, { id: first.shop.shop.id });
  expect(shops.balance.gross).toBe(String(3n * BigInt(MAX)));
});
