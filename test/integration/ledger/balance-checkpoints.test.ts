import { CHECKPOINT_EVERY, balanceFigures } from '../../../src/modules/ledger/balance-checkpoints';
import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { checkoutClient } from '../../support/checkout-client';
import { useEmptyDatabase } from '../../support/databases';
import { seedCompletedPayments } from '../../support/ledger-seed';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Balances as the last append-only checkpoint plus the entries after it (docs/checkout.md, "Balances in constant
 * time"). A database of its own: this file writes a wrong checkpoint on purpose.
 */
jest.setTimeout(60_000);

const database = useEmptyDatabase('payments_checkpoints');
const service = useTestService(() => ({ DATABASE_URL: database.url }));

const checkpointsOf = async (sellerId: string) =>
  service.em().execute<{ through_entry_id: string; available: string }[]>(
    'select "through_entry_id", "available" from "ledger_checkpoints" where "seller_id" = ? order by "through_entry_id"',
    [sellerId],
  );
const lastEntryId = async (sellerId: string) =>
  Number((await service.em().execute<{ id: string }[]>('select max("id") as id from "ledger_entries" where "seller_id" = ?', [sellerId]))[0].id);

async function bigSeller(payments: number, ageSeconds: number) {
  const created = await service.createShop();
  await seedCompletedPayments(database.url, { shopId: created.shop.id, sellerId: created.seller.id }, { payments, amount: 1000, ageSeconds });
  return created;
}

test('a big seller gets a checkpoint on the first read past the threshold; later reads add the new entries to it', async () => {
  const { seller, apiKey } = await bigSeller(CHECKPOINT_EVERY, 3600); // 2 seller entries per payment
  expect(await checkpointsOf(seller.id)).toEqual([]);

  expect(await sellerBalance(service.em(), seller.id)).toBe(BigInt(CHECKPOINT_EVERY * 850));
  // One every CHECKPOINT_EVERY entries (dense, so any prefix of the history is cheap: balance-lines.ts), the last at the newest entry.
  const checkpoints = await checkpointsOf(seller.id);
  expect(checkpoints).toHaveLength(2);
  expect(checkpoints[0].available).toBe(String((CHECKPOINT_EVERY / 2) * 850));
  expect(checkpoints.at(-1)).toEqual({ through_entry_id: String(await lastEntryId(seller.id)), available: String(CHECKPOINT_EVERY * 850) });

  // A live completion after the checkpoint: its entries are the tail, added to the checkpoint's sums.
  const id = (await sellerClient(service.url, apiKey).create(VALID_PAYMENT)).body.data.id;
  expect((await checkoutClient(service.url).pay(id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
  const fee = Math.round(VALID_PAYMENT.amount * 0.15);
  const figures = (await balanceFigures(service.em(), [seller.id])).get(seller.id)!;
  expect(figures).toEqual({
    available: BigInt(CHECKPOINT_EVERY * 850 + VALID_PAYMENT.amount - fee),
    gross: BigInt(CHECKPOINT_EVERY * 1000 + VALID_PAYMENT.amount),
    fees: BigInt(CHECKPOINT_EVERY * 150 + fee),
    refunds: 0n,
  });
  expect(await checkpointsOf(seller.id)).toHaveLength(2); // the tail is short: no new checkpoint

  const report = await checkLedger(service.em());
  expect(report.violations.filter((v) => v.subject.startsWith(seller.id))).toEqual([]);
});

test('entries younger than the settle window are summed but never checkpointed (a transaction still open may commit below them)', async () => {
  const { seller } = await bigSeller(CHECKPOINT_EVERY, 0);
  expect(await sellerBalance(service.em(), seller.id)).toBe(BigInt(CHECKPOINT_EVERY * 850));
  expect(await checkpointsOf(seller.id)).toEqual([]);
});

test('checkpoints are append-only, and check-ledger reports one that does not match the entries', async () => {
  const { seller } = await bigSeller(CHECKPOINT_EVERY, 3600);
  await sellerBalance(service.em(), seller.id);
  const checkpoint = (await checkpointsOf(seller.id)).at(-1)!;
  await expect(service.em().execute('update "ledger_checkpoints" set "available" = "available" + 100 where "seller_id" = ?', [seller.id])).rejects.toThrow(/append-only/);
  await expect(service.em().execute('delete from "ledger_checkpoints" where "seller_id" = ?', [seller.id])).rejects.toThrow(/append-only/);

  // A forged checkpoint one entry further on that claims 100 cents too many (the balance a reader would see grows).
  const through = Number(checkpoint.through_entry_id);
  await service.em().execute(
    `insert into "ledger_checkpoints" ("seller_id", "through_entry_id", "available", "gross", "fees", "refunds")
     select ?, ?, "available" + 100, "gross", "fees", "refunds" from "ledger_checkpoints" where "seller_id" = ? and "through_entry_id" = ?`,
    [seller.id, through + 1, seller.id, through],
  );
  const report = await checkLedger(service.em());
  expect(report.violations.filter((v) => v.invariant === 'checkpoint_matches_entries')).toEqual([
    { invariant: 'checkpoint_matches_entries', subject: `${seller.id} through ${through + 1}`, detail: expect.stringMatching(/^checkpoint 850100\//) },
  ]);
});
