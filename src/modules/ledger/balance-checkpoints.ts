import type { EntityManager } from '@mikro-orm/postgresql';
import { exactCents, type Cents } from '../../shared/cents';

/** The sums behind a seller's balance, all in integer cents. */
export interface BalanceFigures {
  /** What may be withdrawn now: every seller_balance entry summed (held withdrawals already taken out). */
  available: Cents;
  /** Lifetime gross of completed payments. */
  gross: Cents;
  /** Lifetime fees (15% of each completed payment). */
  fees: Cents;
  /** Lifetime refunds taken back from the balance (less refunds the acquirer reversed). */
  refunds: Cents;
}

/** Entries after the last checkpoint beyond which a read writes a new one: the most a balance read ever sums. */
export const CHECKPOINT_EVERY = 1000;

/**
 * A checkpoint covers only entries older than this, so that no transaction still open can commit an entry
 * with a smaller id afterwards (ids are drawn before commit, so they do not commit in order): every writer of
 * ledger entries is a short transaction under DATABASE_STATEMENT_TIMEOUT_MS. check-ledger verifies each
 * checkpoint against the entries, so a breach of this assumption is found, not silently kept.
 */
export const CHECKPOINT_SETTLE_SECONDS = 60;

/** The four sums over a set of seller_balance entries `e`, as fee and refund amounts (positive). */
export const FIGURE_SUMS_SQL = `coalesce(sum(e."amount"), 0) as available,
  coalesce(sum(e."amount") filter (where e."kind" = 'payment'), 0) as gross,
  coalesce(-sum(e."amount") filter (where e."kind" = 'fee'), 0) as fees,
  coalesce(-sum(e."amount") filter (where e."kind" in ('refund', 'refund_reversed')), 0) as refunds`;

type FigureRow = { seller_id: string; available: string; gross: string; fees: string; refunds: string; tail_entries: string };

/**
 * The figures of several sellers in one query: for each, its last checkpoint plus the sums of its entries
 * after it (an index range scan on (seller_id, id): at most about CHECKPOINT_EVERY rows). A seller whose tail
 * has grown past CHECKPOINT_EVERY gets a new checkpoint (one more statement, once per that many entries).
 */
export async function balanceFigures(em: EntityManager, sellerIds: readonly string[]): Promise<Map<string, BalanceFigures>> {
  const figures = new Map<string, BalanceFigures>();
  if (sellerIds.length === 0) return figures;
  const rows = await em.execute<FigureRow[]>(
    `select s.seller_id,
            coalesce(c."available", 0) + t.available as available, coalesce(c."gross", 0) + t.gross as gross,
            coalesce(c."fees", 0) + t.fees as fees, coalesce(c."refunds", 0) + t.refunds as refunds, t.tail_entries
       from unnest(array[?]::text[]) as s(seller_id)
       left join lateral (select * from "ledger_checkpoints" k where k."seller_id" = s.seller_id order by k."through_entry_id" desc limit 1) c on true
       cross join lateral (select ${FIGURE_SUMS_SQL}, count(*) as tail_entries from "ledger_entries" e
                            where e."seller_id" = s.seller_id and e."account" = 'seller_balance' and e."id" > coalesce(c."through_entry_id", 0)) t`,
    [sellerIds as string[]],
  );
  for (const r of rows) {
    figures.set(r.seller_id, { available: exactCents(r.available), gross: exactCents(r.gross), fees: exactCents(r.fees), refunds: exactCents(r.refunds) });
    if (Number(r.tail_entries) > CHECKPOINT_EVERY) await writeCheckpoint(em, r.seller_id);
  }
  return figures;
}

/**
 * Appends checkpoints for `sellerId`: from the previous one up to the newest entry older than
 * CHECKPOINT_SETTLE_SECONDS, one every CHECKPOINT_EVERY entries and one at that newest entry, in one statement.
 * Dense checkpoints keep every prefix sum cheap, not only the latest: the running balance after any line of a
 * seller's history is its checkpoint plus at most CHECKPOINT_EVERY entries (src/modules/ledger/balance-lines.ts). Two
 * readers writing the same checkpoints at once make one row each (primary key).
 */
export async function writeCheckpoint(em: EntityManager, sellerId: string): Promise<void> {
  await em.execute(
    `with prev as (
       select * from "ledger_checkpoints" where "seller_id" = ? order by "through_entry_id" desc limit 1
     ), bound as (
       select max(e."id") as through from "ledger_entries" e
        where e."seller_id" = ? and e."account" = 'seller_balance' and e."id" > coalesce((select "through_entry_id" from prev), 0)
          and e."created_at" < now() - make_interval(secs => ?)
     ), tail as (
       select e."id", b.through, row_number() over w as n,
              sum(e."amount") over w as available,
              coalesce(sum(e."amount") filter (where e."kind" = 'payment') over w, 0) as gross,
              coalesce(-sum(e."amount") filter (where e."kind" = 'fee') over w, 0) as fees,
              coalesce(-sum(e."amount") filter (where e."kind" in ('refund', 'refund_reversed')) over w, 0) as refunds
         from bound b
         join "ledger_entries" e on e."seller_id" = ? and e."account" = 'seller_balance' and e."id" > coalesce((select "through_entry_id" from prev), 0) and e."id" <= b.through
       window w as (order by e."id")
     )
     insert into "ledger_checkpoints" ("seller_id", "through_entry_id", "available", "gross", "fees", "refunds")
     select ?, t."id", coalesce(p."available", 0) + t.available, coalesce(p."gross", 0) + t.gross,
            coalesce(p."fees", 0) + t.fees, coalesce(p."refunds", 0) + t.refunds
       from tail t left join prev p on true
      where t.n % ? = 0 or t."id" = t.through
     on conflict do nothing`,
    [sellerId, sellerId, CHECKPOINT_SETTLE_SECONDS, sellerId, sellerId, CHECKPOINT_EVERY],
  );
}
