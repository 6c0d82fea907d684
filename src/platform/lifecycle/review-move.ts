import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { DomainError } from '../../shared/errors';
import { applyMove, type MoveAuditEntry, type MoveAuditor, type MoveEffects } from './apply-move';
import { moveOf, type Lifecycle, type MoveSpec } from './lifecycle';

/** An admin's audit writer (src/modules/audit, `moveAuditor`): it also records a refused move. */
export interface ReviewAuditor extends MoveAuditor {
  adminId: string;
  /** Writes and commits a refusal on its own unit of work, so it outlives the refused move. */
  refuse(em: EntityManager, entry: Omit<MoveAuditEntry, 'reason'> & { details: { code: string } }): Promise<void>;
}

/** A requested money movement reviewed by admins: a refund, a withdrawal, a settlement by hand. */
export interface ReviewedRequest {
  id: string;
  status: string;
  requestedBy: { id: string } | null;
}

export interface ReviewMove<E> {
  id: string;
  /** The reviewing admin, who writes the audit entry. */
  by: ReviewAuditor;
  /** The audit entry's reason (a rejection's reason, an approval's note). */
  reason: string | null;
  changes: Partial<E>;
  details?: (row: E) => Record<string, unknown>;
  journal?: MoveEffects<E>['journal'];
  event?: MoveEffects<E>['event'];
  notice?: MoveEffects<E>['notice'];
  populate?: readonly string[];
  /** The catalogue's answers: the row is gone, or no longer in a state the move leaves. */
  notFound: () => DomainError;
  /** Four eyes: the requester tried to approve (written to the audit log as `<lifecycle>.approval_refused`). */
  selfApproval: () => DomainError;
  conflict: (move: MoveSpec<string>, status: string) => DomainError;
}

/**
 * An admin's move of a refund or a withdrawal (approve, reject, pay): the move function with the admin as
 * the audit actor (and, for an approval, the four-eyes condition in the UPDATE), then the one way both
 * answer a move that did not land: not found, the requester approving (a self-approval refusal, audited), or
 * the state conflict naming the move. Two admins acting at once: one moves it, the other is told why not.
 */
export async function applyReviewMove<E extends ReviewedRequest, S extends string, M extends string>(
  em: EntityManager,
  lifecycle: Lifecycle<S, M>,
  entity: EntityClass<E>,
  moveName: M,
  request: ReviewMove<E>,
): Promise<E> {
  const { id, by } = request;
  const moved = await applyMove(em, lifecycle, entity, moveName, {
    id,
    changes: request.changes,
    populate: request.populate,
    effects: {
      audit: { by, reason: request.reason, details: request.details },
      ...(request.journal ? { journal: request.journal } : {}),
      ...(request.event ? { event: request.event } : {}),
      ...(request.notice ? { notice: request.notice } : {}),
    },
  });
  const row = await em.findOne(entity, { id } as FilterQuery<E>, { refresh: true });
  if (moved && row) return row;
  if (!row) throw request.notFound();
  const move = moveOf(lifecycle, moveName);
  if (move.notByRequester && row.requestedBy?.id === by.adminId) {
    // Four eyes: the move enforces it in the approving UPDATE's condition; this is the refusal it answers, audited.
    const error = request.selfApproval();
    await by.refuse(em, { action: `${lifecycle.name}.approval_refused`, targetType: lifecycle.audits ?? lifecycle.name, targetId: id, details: { code: error.code } });
    throw error;
  }
  throw request.conflict(move, row.status);
}
