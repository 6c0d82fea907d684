import { Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { prefixedId } from '../../shared/random-id';
import { AdminRole } from './admin-role';

/** Who issued a credential: an admin's id, or `cli` for the operations CLI. */
export const CLI_ISSUER = 'cli';

/**
 * The credential an admin acts with in one request: one of their tokens or one of their console sessions,
 * and who issued it (the admin's own id, or `cli`). The audit log records it with every entry.
 */
export interface AdminCredential {
  kind: 'token' | 'session';
  id: string;
  issuedBy: string;
}

/** A member of our staff who may use the admin console, with one role; bearer tokens are in AdminToken. */
@Entity({ tableName: 'admins' })
export class Admin {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('adm', 16);

  @Property({ type: 'string', unique: true })
  email!: string;

  @Enum({ items: () => AdminRole })
  role!: AdminRole;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  /** Set by `revoke-admin`: every token of the admin is refused. */
  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /**
   * The credential this admin acts with in the current request, set where the request is authenticated
   * (adminForToken, the console session); never stored. recordAudit writes it into each entry.
   */
  actingWith?: AdminCredential;
}
