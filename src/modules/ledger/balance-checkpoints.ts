import type { EntityManager } from '@mikro-orm/postgresql';
import { insertCheckpoints, selectCheckpointedFigures } from './balance-store';
import type { BalanceFigures } from './balance-store';
export type { BalanceFigures } from './balance-store';

/** Entries after the last checkpoint beyond which a read writes a new one: the most a balance read ever sums. */
export const CHECKPOINT_EVERY = 1000;

/**
 * A checkpoint covers only entries older than this, so that no transaction still open can commit an entry
 * with a smaller id afterwards (ids are drawn before commit, so they do not commit in order): every writer of
 * ledger entries is a short transaction under DATABASE_STATEMENT_TIMEOUT_MS. check-ledger verifies each
 * checkpoint against the entries, so a breach of this assumption is found, not silently kept.
 */
export const CHECKPOINT_SETTLE_SECONDS = 60;

/**
 * The figures of several sellers in one query: for each, its last checkpoint plus the sums of its entries
 * after it (an index range scan on (seller_id, id): at most about CHECKPOINT_EVERY rows). A seller whose tail
 * has grown past CHECKPOINT_EVERY gets a new checkpoint (one more statement, once per that many entries).
 */
export async function balanceFigures(em: EntityManager, sellerIds: readonly string[]): Promise<Map<string, BalanceFigures>> {
  const figures = new Map<string, BalanceFigures>();
  if (sellerIds.length === 0) return figures;
  for (const row of await selectCheckpointedFigures(em, sellerIds)) {
    figures.set(row.sellerId, row.figures);
    if (row.tailEntries > CHECKPOINT_EVERY) await writeCheckpoint(em, row.sellerId);
  }
  return figures;
}

/**
 * Appends checkpoints for `sellerId`: from the previous one up to the newest entry older than
 * CHECKPOINT_SETTLE_SECONDS, one every CHECKPOINT_EVERY entries and one at that newest entry, in one statement (balance-store.ts).
 * Dense checkpoints keep every prefix sum cheap, not only the latest: the running balance after any line of a
 * seller's history is its checkpoint plus at most CHECKPOINT_EVERY entries (src/modules/ledger/balance-lines.ts). Two
 * readers writing the same checkpoints at once make one row each (primary key).
 */
export async function writeCheckpoint(em: EntityManager, sellerId: string): Promise<void> {
  await insertCheckpoints(em, sellerId, CHECKPOINT_SETTLE_SECONDS, CHECKPOINT_EVERY);
}
