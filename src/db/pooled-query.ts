import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One statement on a pooled connection of the ORM's own pool, without the unit of work or the query builder:
 * the hot paths' SQL (payments/payment-store.ts, checkout/card-claim.ts; docs/performance.md has the
 * measurements). Never call this inside a transaction: it takes its own connection. `$1, $2, …` placeholders.
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
