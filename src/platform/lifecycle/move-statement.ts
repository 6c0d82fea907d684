import type { EntityManager } from '@mikro-orm/postgresql';
import { pooledQuery } from '../db/pooled-query';
import { moveOf, UndeclaredEffectError, type Lifecycle, type MoveSpec } from './lifecycle';

/** SQL with positional `?` placeholders and their values, in order. */
export interface SqlPart {
  sql: string;
  params: readonly unknown[];
}

/**
 * A declared effect's rows as the body of a CTE, given the name the table declares (the journal, the event type,
 * the notice's mail kind). It reads the moved row's id from `moved` and may read the `before` CTEs; `follows` are
 * CTEs that belong to it and come right after it (an event's delivery).
 */
export type EffectPart = (declared: string) => SqlPart & { follows?: Record<string, SqlPart> };

export interface StatementRequest {
  id: string;
  /** CTEs run before the move, by name (the shop's standing under its locks); the condition and effects may read them. */
  before?: Record<string, SqlPart>;
  /** Columns the move writes besides its state and stage: column → SQL expression. */
  set?: Record<string, SqlPart>;
  /** A condition of the UPDATE besides the states (a deadline, the shop's standing). */
  condition?: SqlPart;
  /** A move's own condition besides its states, by move: with several moves, the one that applies to each (a claim's due time, a reclaim's lease). */
  when?: Record<string, SqlPart>;
  /** Exactly the effects the table declares: journal, event, notice, receipt. */
  effects?: { journal?: EffectPart; event?: EffectPart; notice?: EffectPart; receipt?: EffectPart };
  /** When the table declares an audit entry: who acts. The engine writes the entry itself. */
  auditActor?: string;
  /** Columns of the moved row, as the move left them, that `moved` returns besides its id (a claim reads what it took). */
  returning?: readonly string[];
  /** The statement's answer; `moved` holds the moved row's id (and the `returning` columns), or nothing. */
  select: SqlPart;
}

const EFFECT_KINDS = ['journal', 'event', 'notice', 'receipt'] as const;

/**
 * The move engine's one-statement form, for hot paths that cannot afford a transaction's round trips
 * (docs/decisions/0003-completion-statement.md): the conditional UPDATE of `applyMove` as the CTE `moved`, and
 * each effect the table declares as a CTE that writes only for a moved row, all atomic in one statement. The
 * table decides what is written: an effect it declares that the caller does not build throws, as does one the
 * caller builds that it does not declare, so changing a move's declared effects changes (or stops) this path too.
 * Nothing else is written: the statement's CTEs are the ones it reads before the move, the move and its effects.
 * Four-eyes moves need an admin and a transaction: they go through applyMove.
 *
 * Several moves to the same state may be one UPDATE (a claim that also takes over a stale claim): the row moves by
 * whichever of them its state allows, each with its own condition (`when`); each must declare what the statement builds.
 */
export function moveStatement(lifecycle: Lifecycle, moveNames: string | readonly string[], request: StatementRequest): SqlPart {
  const names = typeof moveNames === 'string' ? [moveNames] : moveNames;
  const moves = names.map((name) => moveOf(lifecycle, name));
  const [move] = moves;
  for (const [i, each] of moves.entries()) checkDeclared(`${lifecycle.name}.${names[i]}`, each, request);
  if (moves.some((other) => outcomeOf(other) !== outcomeOf(move))) {
    throw new UndeclaredEffectError(`${lifecycle.name}.${names.join(', ')}: one statement moves a row to one state, with one set of effects`);
  }

  const ctes: [string, SqlPart][] = Object.entries(request.before ?? {});
  ctes.push(['moved', movedPart(lifecycle, names, moves, request)]);
  const declared = { journal: move.journal, event: move.event, notice: move.notice, receipt: move.receipt };
  for (const kind of EFFECT_KINDS) {
    const name = declared[kind];
    if (!name) continue;
    const { follows, ...part } = request.effects![kind]!(name);
    ctes.push([kind, part], ...Object.entries(follows ?? {}));
  }
  if (move.audit) ctes.push(['audit', auditPart(lifecycle.audits ?? lifecycle.name, move.audit, request.auditActor!)]);

  const sql = `with ${ctes.map(([name, part]) => `${name} as (${part.sql})`).join(', ')} ${request.select.sql}`;
  return { sql, params: [...ctes.flatMap(([, part]) => part.params), ...request.select.params] };
}

/** Where a move leaves the row and what it writes besides, to compare moves made by one statement. */
const outcomeOf = (move: MoveSpec<string>) => JSON.stringify([move.to, move.stage?.to, move.journal, move.event, move.notice, move.receipt, move.audit]);

/** What the move declares is exactly what the statement builds: no effect goes missing or sneaks in. */
function checkDeclared(where: string, move: MoveSpec<string>, request: StatementRequest): void {
  if (move.notByRequester) throw new UndeclaredEffectError(`${where}: four eyes need applyMove`);
  const declared = { journal: move.journal, event: move.event, notice: move.notice, receipt: move.receipt };
  for (const kind of EFFECT_KINDS) {
    if (!!declared[kind] !== !!request.effects?.[kind]) {
      throw new UndeclaredEffectError(`${where}: the table ${declared[kind] ? 'declares' : 'does not declare'} ${kind === 'event' ? 'an' : 'a'} ${kind}, the statement ${request.effects?.[kind] ? 'builds' : 'does not build'} one`);
    }
  }
  if (!!move.audit !== (request.auditActor !== undefined)) {
    throw new UndeclaredEffectError(`${where}: the table ${move.audit ? 'declares' : 'does not declare'} an audit entry, the statement ${request.auditActor !== undefined ? 'names' : 'does not name'} an actor`);
  }
}

/** Builds the move's statement and runs it on a pooled connection (never inside a transaction): the answer's rows. */
export function runMoveStatement(em: EntityManager, lifecycle: Lifecycle, moveName: string | readonly string[], request: StatementRequest): Promise<Record<string, unknown>[]> {
  const { sql, params } = moveStatement(lifecycle, moveName, request);
  return pooledQuery(em, sql, params);
}

function movedPart(lifecycle: Lifecycle, names: readonly string[], moves: MoveSpec<string>[], request: StatementRequest): SqlPart {
  const [move] = moves;
  const sets: SqlPart[] = [{ sql: `"${lifecycle.column}" = ?`, params: [move.to] }];
  if (move.stage && lifecycle.side) sets.push({ sql: `"${lifecycle.side.column}" = ?`, params: [move.stage.to] });
  const fromOf = moves.map((each, i) => fromPart(lifecycle, each, request.when?.[names[i]]));
  const from = fromOf.length === 1 ? fromOf : [{ sql: `(${fromOf.map((f) => f.sql).join(' or ')})`, params: fromOf.flatMap((f) => f.params) }];
  const conditions: SqlPart[] = [{ sql: '"id" = ?', params: [request.id] }, ...from];
  for (const [column, value] of Object.entries(request.set ?? {})) sets.push({ sql: `"${column}" = ${value.sql}`, params: value.params });
  if (request.condition) conditions.push({ sql: `(${request.condition.sql})`, params: request.condition.params });
  return {
    sql: `update "${lifecycle.table}" set ${sets.map((s) => s.sql).join(', ')} where ${conditions.map((c) => c.sql).join(' and ')} returning ${['id', ...(request.returning ?? [])].map((c) => `"${c}"`).join(', ')}`,
    params: [...sets, ...conditions].flatMap((part) => part.params),
  };
}

/** Where a move may start: its states, its stage's, and its own condition. */
function fromPart(lifecycle: Lifecycle, move: MoveSpec<string>, when: SqlPart | undefined): SqlPart {
  const parts = [inStates(lifecycle.column, move.from)];
  if (move.stage && lifecycle.side) parts.push(inStates(lifecycle.side.column, move.stage.from));
  if (when) parts.push({ sql: `(${when.sql})`, params: when.params });
  return { sql: parts.map((p) => p.sql).join(' and '), params: parts.flatMap((p) => p.params) };
}

const inStates = (column: string, states: readonly string[]): SqlPart => ({ sql: `"${column}" in (${states.map(() => '?').join(', ')})`, params: states });

/** The audit entry of a move made by the service itself (no admin: moves with one go through applyMove). */
const auditPart = (targetType: string, action: string, actor: string): SqlPart => ({
  sql: `insert into "audit_log" ("actor", "action", "target_type", "target_id") select ?, ?, ?, m."id" from moved m returning "id"`,
  params: [actor, action, targetType],
});
