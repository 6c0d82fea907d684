import type { EntityManager } from '@mikro-orm/postgresql';

// A seller's mail settings (`seller_mail_settings`, one row per seller once set), read with the account's own address.

/** What a seller set, and the account's address that stands in for a support address not set. */
export interface StoredMailSettings {
  /** The seller's account address. */
  email: string;
  /** Null: never set, or set back to the account's address. */
  supportEmail: string | null;
  /** The topics switched off; null until the seller saved the settings once. */
  muted: string[] | null;
}

/** A seller's settings; `lock` holds the seller's row until the caller's transaction ends. Null when there is no such seller. */
export async function storedMailSettings(em: EntityManager, sellerId: string, lock = false): Promise<StoredMailSettings | null> {
  const [row] = await em.execute<{ email: string; support_email: string | null; muted: string[] | null }[]>(
    `select s."email", m."support_email", m."muted"
       from "sellers" s left join "seller_mail_settings" m on m."seller_id" = s."id"
      where s."id" = ?${lock ? ' for update of s' : ''}`,
    [sellerId],
  );
  return row ? { email: row.email, supportEmail: row.support_email, muted: row.muted } : null;
}

/** Writes a seller's support address and the topics switched off, in place of what was there. */
export async function saveMailSettings(tx: EntityManager, sellerId: string, supportEmail: string | null, muted: readonly string[]): Promise<void> {
  await tx.execute(
    `insert into "seller_mail_settings" ("seller_id", "support_email", "muted", "updated_at") values (?, ?, ?::text[], now())
     on conflict ("seller_id") do update set "support_email" = excluded."support_email", "muted" = excluded."muted", "updated_at" = excluded."updated_at"`,
    // A PostgreSQL array literal: the topics are our own identifiers (the driver would spread a JS array into a list).
    [sellerId, supportEmail, `{${muted.join(',')}}`],
  );
}
