import { Migration } from '@mikro-orm/migrations';

/**
 * Admins' e-mail addresses as the CLI now stores them (trimmed, lower case; src/shared/email.ts), as sellers'
 * already are: password sign-in looks an address up in that form, so an admin created as `Alice@Example.com`
 * could not sign in. An address whose normal form another admin already has is left as it is.
 */
export class Migration20261202000000_admin_emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`update "admins" a set "email" = lower(btrim(a."email"))
      where a."email" <> lower(btrim(a."email"))
        and not exists (select 1 from "admins" o where o."id" <> a."id" and lower(btrim(o."email")) = lower(btrim(a."email")))`);
  }
}
