import { Entity, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One admin action in the append-only audit log: who, what, on which target, why, when. The database
 * refuses UPDATE, DELETE and TRUNCATE of the table, as it does for the ledger.
 */
@Entity({ tableName: 'audit_log' })
export class AuditEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** The acting admin's id (plain id: the audit log names no admin entity); null for the operations CLI and the service itself. */
  @Property({ type: 'string', nullable: true })
  adminId: string | null = null;

  /** Who acted, as they were known then: the admin's e-mail address, `cli`, or `system` (the service's own rule). */
  @Property({ type: 'string' })
  actor!: string;

  /** For example `refund.approved`, `shop.deactivated`. */
  @Property({ type: 'string' })
  action!: string;

  /** `payment`, `refund`, `withdrawal`, `shop`, `seller` or `admin`. */
  @Property({ type: 'string' })
  targetType!: string;

  @Property({ type: 'string' })
  targetId!: string;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  /** `token` or `session`: what the admin acted with. Null for the CLI and for entries written before it was kept. */
  @Property({ type: 'text', nullable: true })
  credentialKind: string | null = null;

  /** The admin token's id (atk_…) or the console session's id. */
  @Property({ type: 'text', nullable: true })
  credentialId: string | null = null;

  /** Who issued that credential: an admin id (the acting admin's own, since nobody issues one for another), or `cli`. */
  @Property({ type: 'text', nullable: true })
  credentialIssuedBy: string | null = null;

  /** Facts that make the entry readable on its own (amounts, related ids, the status before). */
  @Property({ type: 'json', columnType: 'jsonb' })
  details: Opt<Record<string, unknown>> = {};

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
