import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AuditEntry } from './audit-entry.entity';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { domainError } from '../../shared/errors';
import { TimeOrder } from '../../shared/list-order';
import type { MoveAuditor } from '../../platform/lifecycle/apply-move';
import type { ReviewAuditor } from '../../platform/lifecycle/review-move';

/** `operation`: a refused GraphQL field (its name is the target id); `queue`: a bull queue (its name, or `all`). */
export type AuditTargetType = 'payment' | 'refund' | 'withdrawal' | 'shop' | 'seller' | 'admin' | 'operation' | 'mail' | 'queue' | 'acquirer_notification' | 'settlement_proposal';

export interface AuditRecord {
  action: string;
  targetType: AuditTargetType;
  targetId: string;
  reason?: string | null;
  details?: Record<string, unknown>;
}

/**
 * What an entry reads of the acting admin, as the admins module hands it: its id, its e-mail address, and the
 * credential it acts with in this request (the token or console session, and who issued it).
 */
export interface AuditActor {
  id: string;
  email: string;
  actingWith?: { kind: 'token' | 'session'; id: string; issuedBy: string };
}

/** The service acting on a rule of its own, with no admin behind it (a live test's automatic refund). */
export const SYSTEM_ACTOR = 'system';

/**
 * Adds an entry to the caller's unit of work, so it is written in the same transaction as the action
 * it describes: no action without its entry, no entry for an action that did not happen.
 * `admin` null means the operations CLI, SYSTEM_ACTOR the service itself. The entry names the credential the
 * admin acts with in this request (`admin.actingWith`: the token or console session, and who issued it).
 */
export function recordAudit(tx: EntityManager, actor: AuditActor | null | typeof SYSTEM_ACTOR, record: AuditRecord): AuditEntry {
  const admin = actor === SYSTEM_ACTOR ? null : actor;
  const credential = admin?.actingWith ?? null;
  return tx.create(AuditEntry, {
    adminId: admin?.id ?? null,
    actor: admin ? admin.email : actor === SYSTEM_ACTOR ? SYSTEM_ACTOR : 'cli',
    action: record.action,
    targetType: record.targetType,
    targetId: record.targetId,
    reason: record.reason ?? null,
    details: record.details ?? {},
    credentialKind: credential?.kind ?? null,
    credentialId: credential?.id ?? null,
    credentialIssuedBy: credential?.issuedBy ?? null,
  });
}

/**
 * An admin's refused action (wrong role, self-approval): written and committed on its own unit of work,
 * since the refused action's own transaction, if any, writes nothing. Action `<what>.refused`, with the
 * error code in `details.code`.
 */
export async function recordRefusal(em: EntityManager, admin: AuditActor, record: AuditRecord & { details: { code: string } }): Promise<void> {
  // Written on a connection of its own, so it outlives the refused action's rollback; inside an open transaction that
  // second connection would wait for the first on the embedded database (one connection at a time): a programming error.
  if (em.isInTransaction()) throw new Error(`refusal ${record.action} recorded inside a transaction: record it once the transaction has ended`);
  await recordAuditApart(em, admin, record);
}

/** An entry written now, with whatever else the caller's unit of work holds (an action that wrote through its own). */
export async function recordAuditNow(em: EntityManager, actor: AuditActor | null | typeof SYSTEM_ACTOR, record: AuditRecord): Promise<void> {
  recordAudit(em, actor, record);
  await em.flush();
}

/** An entry written on a unit of work of its own, apart from anything the caller's holds (an audited read). */
export async function recordAuditApart(em: EntityManager, actor: AuditActor | null | typeof SYSTEM_ACTOR, record: AuditRecord): Promise<void> {
  const own = em.fork({ clear: true });
  recordAudit(own, actor, record);
  await own.flush();
}

/**
 * The move engine's audit writer (src/platform/lifecycle/apply-move.ts) for an admin or the service itself: a
 * move's declared audit entry is written by recordAudit in the move's transaction, an admin's refused
 * approval by recordRefusal.
 */
export function moveAuditor(actor: AuditActor): ReviewAuditor;
export function moveAuditor(actor: typeof SYSTEM_ACTOR): MoveAuditor;
export function moveAuditor(actor: AuditActor | typeof SYSTEM_ACTOR): MoveAuditor {
  const write: MoveAuditor['write'] = (tx, entry) => recordAudit(tx, actor, { ...entry, targetType: entry.targetType as AuditTargetType });
  if (actor === SYSTEM_ACTOR) return { adminId: null, write };
  const reviewer: ReviewAuditor = {
    adminId: actor.id,
    write,
    refuse: (em, entry) => recordRefusal(em, actor, { ...entry, targetType: entry.targetType as AuditTargetType }),
  };
  return reviewer;
}

export interface AuditFilter {
  targetId?: string | null;
  action?: string | null;
  adminId?: string | null;
  /** The acting admin's e-mail address as it was written (any case), or `cli`. */
  actor?: string | null;
  /** Written at or after. */
  createdFrom?: Date | null;
  /** Written before. */
  createdTo?: Date | null;
}

/** The log, newest first unless asked otherwise, optionally for one target, action, admin (by id or e-mail) and period. */
export async function listAudit(em: EntityManager, filter: AuditFilter, page?: number | null, limit?: number | null, order?: TimeOrder | null): Promise<Page<AuditEntry>> {
  const request = validPageRequest(page, limit);
  if (filter.createdFrom && filter.createdTo && filter.createdFrom >= filter.createdTo) throw domainError('DATE_RANGE_INVALID');
  const where: Record<string, unknown> = {};
  if (filter.targetId?.trim()) where.targetId = filter.targetId.trim();
  if (filter.action?.trim()) where.action = filter.action.trim();
  if (filter.adminId?.trim()) where.adminId = filter.adminId.trim();
  // The same expression as the audit_log_actor_idx index: addresses are compared in any case.
  if (filter.actor?.trim()) where[raw('lower(actor)')] = filter.actor.trim().toLowerCase();
  if (filter.createdFrom || filter.createdTo) {
    where.createdAt = { ...(filter.createdFrom ? { $gte: filter.createdFrom } : {}), ...(filter.createdTo ? { $lt: filter.createdTo } : {}) };
  }
  const [items, total] = await em.findAndCount(AuditEntry, where, {
    // Ids grow with time (a sequence), so they order the log as written, ties included.
    orderBy: { id: order === TimeOrder.OLDEST_FIRST ? 'asc' : 'desc' },
    ...windowOf(request),
  });
  return pageOf(request, items, total);
}
