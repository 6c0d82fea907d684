/**
 * The one format of every lifecycle (docs/architecture.md, "Lifecycles"), in the spirit of Kill Bill's state
 * machines: the states, the moves between them, and for each move the result that triggers it and what it
 * writes besides the row (a ledger journal, an audit entry, an outbox event, a mail). A result that moves nothing
 * (an outcome unknown) is written down too, as a `stay`. Enums, SQL status lists, check constraints and the
 * state diagrams in docs/ are all derived from these tables; `applyMove` (apply-move.ts) is the one way a
 * move is applied, and it refuses a move its table does not hold.
 */

export interface StateSpec {
  /** What the state means, in a line. */
  meaning: string;
  /** Nothing leaves a final state. */
  final?: true;
  /** Decided, not final: nobody of ours moves it again, but the acquirer still may (a reversal). Not open. */
  decided?: true;
}

/** A second column some moves also guard and set (the payment's checkout stage). */
export interface SideMove {
  from: readonly string[];
  to: string;
}

export interface MoveSpec<S extends string> {
  from: readonly S[];
  to: S;
  /** The result that triggers it: an answer, an admin's decision, a clock. */
  on: string;
  /** The checkout stage it also requires and sets (payments only). */
  stage?: SideMove;
  /** The ledger journal written in the move's transaction. */
  journal?: string;
  /** The audit action written in the move's transaction (the acting admin is the actor). */
  audit?: string;
  /** The webhook event written to the outbox in the move's transaction. */
  event?: string;
  /** The seller's notification mail written to the mail outbox in the move's transaction (src/modules/notifications/). */
  notice?: string;
  /**
   * The customer's mail (its mail kind: the payment's receipt, the refund's notice) written to the mail outbox in
   * the move's transaction, when the row has the customer's address. Not a `notice`: it goes to the customer,
   * whatever the seller's notification settings.
   */
  receipt?: string;
  /** Four eyes: the admin who requested it may not make this move. */
  notByRequester?: true;
  /** How a refusal names the move: "can be <verb>". */
  verb?: string;
}

/** A result that moves nothing: where it can happen and what happens instead. */
export interface StaySpec<S extends string> {
  in: readonly S[];
  then: string;
}

export interface Lifecycle<S extends string = string, M extends string = string> {
  /** The thing that lives through it, as named in audit entries and errors: `payment`, `refund`, … */
  name: string;
  title: string;
  /** Where its state is kept. */
  table: string;
  column: string;
  /** The entity's property for the column, when not the column's name (`accountStatus`). */
  property?: string;
  /** The audit entries' target type, when not `name` (the seller's account status is audited on the seller). */
  audits?: string;
  /** The state a new row starts in. */
  initial: S;
  states: Record<S, StateSpec>;
  moves: Record<M, MoveSpec<S>>;
  stays?: Record<string, StaySpec<S>>;
  /** The side column's states (payments: the checkout stage), for its enum and check constraint. */
  side?: { column: string; property: string; states: Record<string, StateSpec>; initial: string };
}

export class UnknownMoveError extends Error {
  constructor(lifecycle: string, move: string) {
    super(`the ${lifecycle} lifecycle has no move "${move}" (src/modules/lifecycles.ts)`);
  }
}

/** Checks a table when it is defined: every move goes between known states, and nothing leaves a final state. */
export function defineLifecycle<const S extends string, const M extends string>(lifecycle: Lifecycle<S, M>): Lifecycle<S, M> {
  const states = Object.keys(lifecycle.states);
  const known = (state: string, list = states) => {
    if (!list.includes(state)) throw new Error(`${lifecycle.name}: unknown state "${state}"`);
  };
  known(lifecycle.initial);
  for (const [name, move] of Object.entries(lifecycle.moves) as [string, MoveSpec<S>][]) {
    [...move.from, move.to].forEach((s) => known(s));
    for (const from of move.from) if (lifecycle.states[from].final) throw new Error(`${lifecycle.name}.${name} leaves final state "${from}"`);
    if (move.stage) {
      const side = lifecycle.side ? Object.keys(lifecycle.side.states) : [];
      [...move.stage.from, move.stage.to].forEach((s) => known(s, side));
    }
  }
  for (const stay of Object.values(lifecycle.stays ?? {}) as StaySpec<S>[]) stay.in.forEach((s) => known(s));
  return lifecycle;
}

/** The move named `name`, or an error: a move the table does not hold can never be applied. */
export function moveOf<S extends string, M extends string>(lifecycle: Lifecycle<S, M>, name: M): MoveSpec<S> {
  const move = Object.prototype.hasOwnProperty.call(lifecycle.moves, name) ? lifecycle.moves[name] : undefined;
  if (!move) throw new UnknownMoveError(lifecycle.name, name);
  return move;
}

/** The states as an enum-like object (`PENDING: 'pending'`), for code and for GraphQL's enum. */
export function enumOf<const S extends string>(states: Record<S, StateSpec>): { readonly [K in S as Uppercase<K>]: K } {
  return Object.freeze(Object.fromEntries(Object.keys(states).map((s) => [s.toUpperCase(), s]))) as never;
}

export function statesOf<S extends string>(lifecycle: Lifecycle<S>): S[] {
  return Object.keys(lifecycle.states) as S[];
}

/** The states still waiting for a decision: an open refund request, a withdrawal still held, a pending delivery. */
export function openStatesOf<S extends string>(lifecycle: Lifecycle<S>): S[] {
  return statesOf(lifecycle).filter((s) => !lifecycle.states[s].final && !lifecycle.states[s].decided);
}

/** `'a', 'b'`: a SQL list of states written into SQL text (never for values a query binds). */
export function sqlList(states: readonly string[]): string {
  return states.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ');
}

/** The check constraint of a lifecycle's column(s), from its table. */
export function checkConstraints(lifecycle: Lifecycle): { table: string; name: string; sql: string }[] {
  const constraints = [{ table: lifecycle.table, name: `${lifecycle.table}_${lifecycle.column}_check`, sql: `check ("${lifecycle.column}" in (${sqlList(statesOf(lifecycle))}))` }];
  if (lifecycle.side) {
    const side = lifecycle.side;
    constraints.push({ table: lifecycle.table, name: `${lifecycle.table}_${side.column}_check`, sql: `check ("${side.column}" in (${sqlList(Object.keys(side.states))}))` });
  }
  return constraints;
}

/** A move's caller supplies an effect the table does not declare, or leaves out one it declares. */
export class UndeclaredEffectError extends Error {}
