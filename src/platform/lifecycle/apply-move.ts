import type { EntityClass, EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { moveOf, UndeclaredEffectError, type Lifecycle, type MoveSpec } from './lifecycle';

/** An audit entry as the engine knows it: the table names the action, the lifecycle the target. */
export interface MoveAuditEntry {
  action: string;
  targetType: string;
  targetId: string;
  reason: string | null;
  details?: Record<string, unknown>;
}

/**
 * Who acts in a move, and how its audit entry is written: the audit module's writer (src/modules/audit,
 * `moveAuditor`), so the engine writes the entry without knowing the audit log or the admins.
 */
export interface MoveAuditor {
  /** The acting admin's id, the four-eyes subject; null when the service itself acts. */
  adminId: string | null;
  /** Adds the entry to the move's unit of work, so it commits with the move. */
  write(tx: EntityManager, entry: MoveAuditEntry): void;
}

/** How the writes a move declares are made for this row (the table says which; the caller says how). */
export interface MoveEffects<E> {
  /** The ledger journal (declared as `journal`). */
  journal?: (tx: EntityManager, row: E) => void | Promise<void>;
  /** The outbox event (declared as `event`), given the event type the table names. */
  event?: (tx: EntityManager, row: E, type: string) => Promise<unknown>;
  /** Who acts (an admin or the service) and what the audit entry says (declared as `audit`); also the four-eyes subject. */
  audit?: { by: MoveAuditor; reason?: string | null; details?: (row: E) => Record<string, unknown> };
  /** The notification mail (declared as `notice`), given the mail kind the table names. */
  notice?: (tx: EntityManager, row: E, kind: string) => Promise<unknown>;
  /** The customer's mail (declared as `receipt`), given the mail kind the table names. */
  receipt?: (tx: EntityManager, row: E, kind: string) => Promise<unknown>;
}

export interface MoveRequest<E> {
  id: string;
  /** Extra conditions of the UPDATE besides the state (an expiry deadline, a claim's age, a reference). */
  where?: FilterQuery<E> & object;
  /** Columns written with the move. */
  changes?: Partial<E>;
  /** Relations to load on the moved row for the effects. */
  populate?: readonly string[];
  effects?: MoveEffects<E>;
  /** False when the caller only asks whether the row moved (a claim): nothing is read back, a reference comes back. */
  readBack?: boolean;
}

/**
 * The one way a lifecycle move is applied: a conditional UPDATE (`… WHERE id = ? AND <column> IN (<from>)`,
 * the stage and four-eyes conditions the move declares, and the caller's extra ones) setting `to`, and in the
 * same transaction the ledger journal, the audit entry, the outbox event and the mails the move declares, nothing more,
 * nothing less. Concurrent callers cannot both move the row: exactly one gets the moved row, the others null.
 * A move the table does not hold throws (UnknownMoveError), as does an effect it does not declare.
 */
export async function applyMove<E extends object, S extends string, M extends string>(
  em: EntityManager,
  lifecycle: Lifecycle<S, M>,
  entity: EntityClass<E>,
  moveName: M,
  request: MoveRequest<E>,
): Promise<E | null> {
  const move = moveOf(lifecycle, moveName);
  const effects = request.effects ?? {};
  checkEffects(lifecycle, moveName, move, effects);
  const property = lifecycle.property ?? lifecycle.column;
  const where: Record<string, unknown> = { ...(request.where ?? {}), id: request.id, [property]: oneOrAny(move.from) };
  const changes: Record<string, unknown> = { ...(request.changes ?? {}), [property]: move.to };
  if (move.stage && lifecycle.side) {
    where[lifecycle.side.property] = oneOrAny(move.stage.from);
    changes[lifecycle.side.property] = move.stage.to;
  }
  if (move.notByRequester) {
    const admin = effects.audit!.by.adminId;
    // Four eyes are an admin's rule: the service never requests what it approves.
    if (admin === null) throw new UndeclaredEffectError(`${lifecycle.name}.${moveName}: four eyes need an admin, not the service`);
    where.$and = [...((where.$and as unknown[]) ?? []), { $or: [{ requestedBy: null }, { requestedBy: { $ne: admin } }] }];
  }
  const run = async (tx: EntityManager): Promise<E | null> => {
    const updated = await tx.nativeUpdate(entity, where as FilterQuery<E>, changes as never);
    if (updated !== 1) return null;
    if (request.readBack === false) return tx.getReference(entity, request.id as never) as E;
    const row = await tx.findOneOrFail(entity, { id: request.id } as FilterQuery<E>, { populate: (request.populate ?? []) as never, refresh: true });
    if (move.journal) await effects.journal!(tx, row);
    if (move.audit) {
      const { by, reason, details } = effects.audit!;
      by.write(tx, { action: move.audit, targetType: lifecycle.audits ?? lifecycle.name, targetId: request.id, reason: reason ?? null, details: details?.(row) });
    }
    if (move.event) await effects.event!(tx, row, move.event);
    if (move.notice) await effects.notice!(tx, row, move.notice);
    if (move.receipt) await effects.receipt!(tx, row, move.receipt);
    return row;
  };
  // A move that writes nothing else is one statement, atomic alone: no BEGIN/COMMIT round trips (a card claim
  // is on the completion path, docs/decisions/0003-completion-statement.md).
  const writesEffects = !!(move.journal || move.audit || move.event || move.notice || move.receipt);
  return writesEffects ? em.transactional(run) : run(em);
}

const oneOrAny = (states: readonly string[]) => (states.length === 1 ? states[0] : { $in: [...states] });

/** What the table declares is exactly what the caller supplies: no journal, audit, event, notice or receipt goes missing or sneaks in. */
function checkEffects(lifecycle: Lifecycle, name: string, move: MoveSpec<string>, effects: MoveEffects<never>): void {
  const declared = { journal: !!move.journal, event: !!move.event, audit: !!move.audit || !!move.notByRequester, notice: !!move.notice, receipt: !!move.receipt };
  for (const kind of ['journal', 'event', 'audit', 'notice', 'receipt'] as const) {
    if (declared[kind] !== !!effects[kind]) {
      throw new UndeclaredEffectError(`${lifecycle.name}.${name}: the table ${declared[kind] ? 'declares' : 'does not declare'} a ${kind}, the caller ${effects[kind] ? 'supplies' : 'does not supply'} one`);
    }
  }
}
