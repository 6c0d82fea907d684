import type { EntityManager } from '@mikro-orm/postgresql';
import { credentialStatements } from '../../platform/db/credential-statements';

// The writes of an admin's credential columns (password, lockout, TOTP): the shared statements on `admins`
// (src/platform/db/credential-statements.ts), and the set-up link's own. The rules are identity's, since admin
// sign-in is identity's (src/modules/identity/credentials.ts); it reaches these through `adminCredentials`.

/** An admin's set-up link starts two-factor over: the secret and its date go (the next enrolment resets the last step). */
async function clearTotpForSetup(em: EntityManager, adminId: string): Promise<void> {
  await em.execute(`update "admins" set "totp_enabled_at" = null, "totp_secret" = null where "id" = ?`, [adminId]);
}

/** Each write of an admin's credential; identity's credential store documents what each does. */
export const adminCredentials = { ...credentialStatements('admins'), clearTotpForSetup };
