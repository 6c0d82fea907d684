import type { EntityManager } from '@mikro-orm/postgresql';

export interface LedgerViolation {
  invariant: string;
  subject: string;
  detail: string;
}

/** What a dispute's journals hold on each account it moves (cents, signed as booked). */
export async function selectDisputeBooked(tx: EntityManager, disputeId: string): Promise<{ seller: number; platform: number; customer: number }> {
  const [row] = await tx.execute<{ seller: string; platform: string; customer: string }[]>(
    `select coalesce(sum("amount") filter (where "account" = 'seller_balance'), 0) as seller,
            coalesce(sum("amount") filter (where "account" = 'platform_disputes'), 0) as platform,
            coalesce(sum("amount") filter (where "account" = 'customer_funds'), 0) as customer
       from "ledger_entries" where "dispute_id" = ?`,
    [disputeId],
  );
  return { seller: Number(row.seller), platform: Number(row.platform), customer: Number(row.customer) };
}

/** What each payment left on its seller's balance: the sum of its seller lines (credit, fee, refunds and their undoing, disputes). */
export async function selectSellerNetByPayment(em: EntityManager, paymentIds: string[]): Promise<Map<string, number>> {
  const rows = await em.execute<{ payment_id: string; net: string }[]>(
    `select "payment_id", sum("amount") as net from "ledger_entries"
      where "payment_id" = any(array[?]::text[]) and "account" = 'seller_balance' group by "payment_id"`,
    [paymentIds],
  );
  return new Map(rows.map((row) => [row.payment_id, Number(row.net)]));
}

// check-ledger's SQL: the snapshot it reads in and the statements it runs there. Every function takes the check's
// transaction, so all of them read the same snapshot.

/**
 * Makes `tx` one repeatable-read, read-only snapshot with no statement timeout: the invariants scan the whole
 * ledger, and DATABASE_STATEMENT_TIMEOUT_MS is meant for requests. The first statements of the transaction.
 */
export async function beginLedgerSnapshot(tx: EntityManager): Promise<void> {
  await tx.execute('set transaction isolation level repeatable read, read only');
  await tx.execute('set local statement_timeout = 0');
}

/**
 * How long the client waits for one of the check's scans. The connection's own read timeout (mikro-orm.config.ts,
 * there to fail a request fast when PostgreSQL falls silent) would cut a scan of a large ledger short; a check
 * that has not answered in an hour is stuck.
 */
export const LEDGER_SCAN_TIMEOUT_MS = 60 * 60_000;

/** One scan in the check's transaction, with its own read timeout (set per query through knex: MikroORM's execute takes none). */
async function scan<T>(tx: EntityManager, sql: string): Promise<T[]> {
  const query = tx.getKnex().raw(sql).options({ query_timeout: LEDGER_SCAN_TIMEOUT_MS });
  const transaction = tx.getTransactionContext();
  const result: { rows: T[] } = await (transaction ? query.transacting(transaction) : query);
  return result.rows;
}

/** The rows breaking one invariant (its SQL as ledger-invariants.ts writes it), each named by the invariant. */
export async function selectViolations(tx: EntityManager, invariant: { name: string; sql: string }): Promise<LedgerViolation[]> {
  const rows = await scan<{ subject: string; detail: string }>(tx, invariant.sql);
  return rows.map((r) => ({ invariant: invariant.name, subject: String(r.subject), detail: String(r.detail) }));
}

/** How many sellers and ledger entries the check read. */
export async function countSellersAndEntries(tx: EntityManager): Promise<{ sellers: number; entries: number }> {
  const [counts] = await scan<{ sellers: string; entries: string }>(
    tx,
    'select (select count(*) from "sellers") as sellers, (select count(*) from "ledger_entries") as entries',
  );
  return { sellers: Number(counts.sellers), entries: Number(counts.entries) };
}
