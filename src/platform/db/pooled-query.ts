import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * One statement on a pooled connection of the ORM's own pool, without the unit of work or the query builder:
 * the hot paths' SQL (payments/payment-store.ts, the move engine's one-statement form; docs/decisions/0012-hot-paths.md
 * says why). Never call this inside a transaction: it takes its own connection. Positional `?` placeholders, as
 * everywhere else (`em.execute`): a `?` inside a string literal or a jsonb operator would be taken for one.
 *
 * Each text is a named prepared statement: PostgreSQL parses and plans it once per connection, and later calls
 * send only its name and values. The hot statements are long, and parsing and planning them on every call cost the
 * database more CPU than running them. Behind PgBouncer in transaction mode a connection is not the client's own, and
 * the embedded database's connections share one session: statements go unnamed there (`sendUnnamedStatements`).
 */
export async function pooledQuery(em: EntityManager, sql: string, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
  const client = em.getConnection().getKnex().client;
  const statement = preparedStatement(sql);
  const connection = await client.acquireConnection();
  try {
    // A copy: pg writes the values into the object it is given.
    return (await connection.query(unnamedClients.has(client) ? statement.text : { ...statement }, values)).rows;
  } finally {
    client.releaseConnection(connection);
  }
}

/** The ORMs whose connections do not each hold a session of their own (PgBouncer in transaction mode, the embedded database). */
const unnamedClients = new WeakSet<object>();

/** This ORM's hot statements go unnamed: a session is not one connection's from one statement to the next. */
export function sendUnnamedStatements(em: EntityManager): void {
  unnamedClients.add(em.getConnection().getKnex().client);
}

/** pooledQuery bound to one ORM: for adapters that take a statement runner (the simulator's and Adyen's records). */
export const pooledRunner = (em: EntityManager) => (sql: string, values: unknown[]) => pooledQuery(em, sql, values);

/** `sql` with pg's `$1, $2, …` in place of its positional `?`s. */
function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/**
 * The `$n` form of each statement text and its name (from the text, so every process and connection names it
 * alike), made once: the hot paths send the same few texts again and again. A text built with values inside it would
 * fill this, so the cache starts over past a bound.
 */
const statements = new Map<string, { name: string; text: string }>();
const MAX_TEXTS = 512;
function preparedStatement(sql: string): { name: string; text: string } {
  let statement = statements.get(sql);
  if (statement === undefined) {
    if (statements.size >= MAX_TEXTS) statements.clear();
    const text = numberedPlaceholders(sql);
    statement = { name: `hot_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
    statements.set(sql, statement);
  }
  return statement;
}
