import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One statement on a pooled connection of the ORM's own pool, without the unit of work or the query builder:
 * the hot paths' SQL (payments/payment-store.ts, checkout/card-claim.ts; docs/decisions/0012-hot-paths.md
 * says why). Never call this inside a transaction: it takes its own connection. `$1, $2, …` placeholders.
 */
export async function pooledQuery(em: EntityManager, sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = em.getConnection().getKnex().client;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(sql, values)).rows;
  } finally {
    client.releaseConnection(connection);
  }
}

/** pooledQuery bound to one ORM: for adapters that take a statement runner (the simulator's and Adyen's records). */
export const pooledRunner = (em: EntityManager) => (sql: string, values: unknown[]) => pooledQuery(em, sql, values);

/**
 * `sql` with pg's `$1, $2, …` in place of its positional `?`s, for a statement whose values are laid out in a
 * generated list. A `?` inside a string literal or a jsonb operator would be replaced too.
 */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
