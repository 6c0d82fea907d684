import type { EntityManager } from '@mikro-orm/postgresql';

// The SQL of re-encrypting the sealed columns (src/modules/identity/reencrypt-secrets.ts has the rules).
// `table` and `column` come from SEALED_COLUMNS only, never from input: they are written into the statement.

/** Payout numbers stored before only their last four were kept apart get that column, while they are still plain. */
export async function backfillPayoutAccountLast4(em: EntityManager): Promise<void> {
  await em.execute(`update "sellers" set "payout_account_last4" = right("payout_account_number", 4)
    where "payout_account_last4" is null and "payout_account_number" is not null and "payout_account_number" !~ '^aes[12]:'`);
}

/** Every stored value of the column, with its row's id, in id order. */
export async function selectSealedValues(em: EntityManager, table: string, column: string): Promise<{ id: string; value: string }[]> {
  const rows: { id: string; value: string }[] = await em.execute(`select "id", "${column}" as "value" from "${table}" where "${column}" is not null order by "id"`);
  return rows.map((row) => ({ id: row.id, value: row.value }));
}

/** Replaces the value only while it is still the one read (`was`): false when it changed meanwhile, which is kept. */
export async function resealValue(em: EntityManager, table: string, column: string, sealed: string, id: string, was: string): Promise<boolean> {
  const moved = await em.execute(`update "${table}" set "${column}" = ? where "id" = ? and "${column}" = ? returning "id"`, [sealed, id, was]);
  return moved.length === 1;
}
