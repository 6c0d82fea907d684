import { Migration } from '@mikro-orm/migrations';

/**
 * - `sellers.payout_account_last4`: the last four characters of the payout account number, the only part
 *   shown (masked). The number itself is sealed with ACCOUNT_SECRETS_KEY from now on (src/modules/identity/secret-box.ts);
 *   numbers stored before are sealed by `npm run cli -- reencrypt-secrets` (a migration has no key).
 * - Sellers' e-mail addresses as sign-up stores them (trimmed, lower case; src/shared/email.ts), so an
 *   address an operator typed with capitals signs in and gets reset mails. An address whose normal form
 *   another seller already has is left as it is (two accounts cannot be merged by a migration).
 */
export class Migration20261129020000_seller_secrets_and_emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sellers" add column "payout_account_last4" text null`);
    this.addSql(`update "sellers" set "payout_account_last4" = right("payout_account_number", 4)
      where "payout_account_number" is not null and "payout_account_number" !~ '^aes[12]:'`);
    this.addSql(`update "sellers" s set "email" = lower(btrim(s."email"))
      where s."email" <> lower(btrim(s."email"))
        and not exists (select 1 from "sellers" o where o."id" <> s."id" and lower(btrim(o."email")) = lower(btrim(s."email")))`);
  }
}
