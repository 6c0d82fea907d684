import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Admin } from '../admins';
import { recordRefusal } from './audit.service';
import { type DomainError, domainError } from '../../shared/errors';
import { applyMove, type MoveEffects } from './apply-move';
import { moveOf, type Lifecycle, type MoveSpec } from '../../platform/lifecycle/lifecycle';

/** A requested money movement reviewed by admins: a refund, a withdrawal, a settlement by hand. */
export interface ReviewedRequest {
  id: string;
  status: string;
  requestedBy: { id: string } | null;
}

export interface ReviewMove<E> {
  id: string;
  admin: Admin;
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
  const { id, admin } = request;
  const moved = await applyMove(em, lifecycle, entity, moveName, {
    id,
    changes: request.changes,
    populate: request.populate,
    effects: {
      audit: { admin, reason: request.reason, details: request.details },
      ...(request.journal ? { journal: request.journal } : {}),
      ...(request.event ? { event: request.event } : {}),
      ...(request.notice ? { notice: request.notice } : {}),
    },
  });
  const row = await em.findOne(entity, { id } as FilterQuery<E>, { refresh: true });
  if (moved && row) return row;
  if (!row) throw request.notFound();
  const move = moveOf(lifecycle, moveName);
  if (move.notByRequester && row.requestedBy?.id === admin.id) throw await selfApprovalRefused(em, admin, lifecycle.name as ReviewedKind, id);
  throw request.conflict(move, row.status);
}

type ReviewedKind = 'refund' | 'withdrawal' | 'settlement_proposal';

/** How the four-eyes refusal names what the admin recorded. */
const REQUEST_NAMES: Record<ReviewedKind, string> = { refund: 'refund request', withdrawal: 'withdrawal request', settlement_proposal: 'settlement by hand' };

/**
 * Four eyes: whoever recorded a refund request or requested a withdrawal may not approve it. The move enforces
 * it in the approving UPDATE's condition; this is the refusal it answers, written to the audit log.
 */
async function selfApprovalRefused(em: EntityManager, admin: Admin, targetType: ReviewedKind, targetId: string): Promise<DomainError> {
  const error = domainError('SELF_APPROVAL_NOT_ALLOWED', REQUEST_NAMES[targetType]);
  await recordRefusal(em, admin, { action: `${targetType}.approval_refused`, targetType, targetId, details: { code: error.code } });
  return error;
}
