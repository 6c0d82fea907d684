import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One statement on a pooled connection of the ORM's own pool, without the unit of work or the query builder:
 * the hot paths' SQL (payments/payment-store.ts, the move engine's one-statement form; docs/decisions/0012-hot-paths.md
 * says why). Never call this inside a transaction: it takes its own connection. Positional `?` placeholders, as
 * everywhere else (`em.execute`): a `?` inside a string literal or a jsonb operator would be taken for one.
 */
export async function pooledQuery(em: EntityManager, sql: string, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
  const client = em.getConnection().getKnex().client;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(numberedText(sql), values)).rows;
  } finally {
    client.releaseConnection(connection);
  }
}

/** pooledQuery bound to one ORM: for adapters that take a statement runner (the simulator's and Adyen's records). */
export const pooledRunner = (em: EntityManager) => (sql: string, values: unknown[]) => pooledQuery(em, sql, values);

/** `sql` with pg's `$1, $2, …` in place of its positional `?`s. */
function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * The `$n` form of each statement text, made once: the hot paths send the same few texts again and again. A
 * text built with values inside it would fill this, so the cache starts over past a bound.
 */
const numberedTexts = new Map<string, string>();
const MAX_TEXTS = 512;
function numberedText(sql: string): string {
  let text = numberedTexts.get(sql);
  if (text === undefined) {
    if (numberedTexts.size >= MAX_TEXTS) numberedTexts.clear();
    text = numberedPlaceholders(sql);
    numberedTexts.set(sql, text);
  }
  return text;
}
