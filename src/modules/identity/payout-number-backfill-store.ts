import type { EntityManager } from '@mikro-orm/postgresql';

/** Payout numbers stored before only their last four were kept apart get that column, while they are still plain. */
export async function backfillPayoutAccountLast4(em: EntityManager): Promise<void> {
  await em.execute(`update "sellers" set "payout_account_last4" = right("payout_account_number", 4)
    where "payout_account_last4" is null and "payout_account_number" is not null and "payout_account_number" !~ '^aes[12]:'`);
}
