import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let paymentId: string;

beforeAll(async () => {
  const seller = sellerClient(service.url, (await service.createShop()).apiKey);
  paymentId = (await seller.create(VALID_PAYMENT)).body.data.id;
  await checkoutClient(service.url).pay(paymentId, '4242424242424242');
});

const sql = (query: string, params: unknown[] = []) => service.em().getConnection().execute(query, params);

describe('the ledger is append-only and double-entry, enforced by the database', () => {
  test('UPDATE of an entry is refused', async () => {
    await expect(sql('update ledger_entries set amount = amount + 1 where payment_id = ?', [paymentId])).rejects.toThrow(/append-only/);
  });

  test('DELETE and TRUNCATE are refused', async () => {
    await expect(sql('delete from ledger_entries where payment_id = ?', [paymentId])).rejects.toThrow(/append-only/);
    await expect(sql('truncate ledger_entries')).rejects.toThrow(/append-only/);
  });

  test('a journal whose entries do not sum to zero is refused at commit', async () => {
    await expect(
      service.em().transactional((tx) =>
        tx.getConnection().execute(`insert into ledger_entries (journal_id, account, kind, amount) values ('jrn_unbalanced', 'fee_revenue', 'fee', 10)`, [], 'run', tx.getTransactionContext()),
      ),
    ).rejects.toThrow(/does not balance/);
  });

  test('a second credit for the same payment is refused', async () => {
    await expect(
      sql(`insert into ledger_entries (journal_id, account, kind, amount, payment_id) values ('jrn_twice', 'customer_funds', 'payment', -1, ?), ('jrn_twice', 'fee_revenue', 'payment', 1, ?)`, [paymentId, paymentId]),
    ).rejects.toThrow(/ledger_entries_payment_kind_account_unique/);
  });

  test('every journal written by completions sums to zero', async () => {
    const rows = (await sql('select journal_id, sum(amount)::int as total from ledger_entries group by journal_id')) as { total: number }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.total === 0)).toBe(true);
  });
});
