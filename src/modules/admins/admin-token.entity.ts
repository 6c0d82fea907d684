import { Entity, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import type { Admin } from './admin.entity';
import { prefixedId } from '../../shared/random-id';

/**
 * One bearer token of an admin. Only its SHA-256 hash is stored; it is refused once `expiresAt` has
 * passed or `revokedAt` is set, exactly like an unknown token.
 */
@Entity({ tableName: 'admin_tokens' })
export class AdminToken {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('atk', 16);

  @ManyToOne('Admin')
  admin!: Admin;

  @Property({ type: 'string', unique: true, hidden: true })
  tokenHash!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /**
   * Who issued it: the admin themselves (issueAdminToken), or null for the operations CLI (create-admin). No
   * admin issues a token for another; a token whose issuer is not its admin is refused (adminForToken).
   */
  @ManyToOne('Admin', { nullable: true })
  issuedBy: Admin | null = null;

  /** Null when revoked from the operations CLI (revoke-admin). */
  @ManyToOne('Admin', { nullable: true })
  revokedBy: Admin | null = null;
}

/** Whether a token may still be used at `now`. */
export function tokenIsLive(token: Pick<AdminToken, 'expiresAt' | 'revokedAt'>, now: Date): boolean {
  return token.revokedAt === null && token.expiresAt.getTime() > now.getTime();
}
