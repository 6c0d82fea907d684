import type { EntityManager } from '@mikro-orm/postgresql';

// Rewriting one column row by row, for a job that spans tables of several modules (re-encrypting the sealed columns
// under a new key: src/modules/identity/reencrypt-secrets.ts). `table` and `column` come from the caller's own
// constant list, never from input: they are written into the statement.

/** Every non-null value of the column, with its row's id, in id order. */
export async function columnValues(em: EntityManager, table: string, column: string): Promise<{ id: string; value: string }[]> {
  const rows: { id: string; value: string }[] = await em.execute(`select "id", "${column}" as "value" from "${table}" where "${column}" is not null order by "id"`);
  return rows.map((row) => ({ id: row.id, value: row.value }));
}

/** Replaces the value only while it is still the one read (`was`): false when it changed meanwhile, which is kept. */
export async function replaceColumnValue(em: EntityManager, table: string, column: string, id: string, was: string, value: string): Promise<boolean> {
  const moved = await em.execute(`update "${table}" set "${column}" = ? where "id" = ? and "${column}" = ? returning "id"`, [value, id, was]);
  return moved.length === 1;
}
