import { DISPUTE_LIFECYCLE, type DisputeMove, type DisputeStep } from './dispute.lifecycle';
import type { DisputeStep as PortDisputeStep } from '../../platform/processor/card-processor';

/** The processor port names the dispute steps itself (it knows no module): they must be exactly the table's. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type PortStepsAreTheTables = Holds<Same<DisputeStep, PortDisputeStep>>;

type DisputeState = keyof typeof DISPUTE_LIFECYCLE.states;

/** One event the acquirer told about a dispute, as kept (`dispute_events`): what it says, and when it happened. */
export interface DisputeFact {
  step: DisputeStep;
  occurredAt: Date;
  /** Arrival order: breaks ties the date and the step's place leave. */
  arrival: number;
}

/** Where a dispute stands by its facts: its state, the moves that led there, and the facts still waiting for a predecessor. */
export interface DisputeHistory {
  status: DisputeState;
  path: DisputeMove[];
  waiting: DisputeFact[];
}

/** A step's place in Adyen's dispute flow, for facts of one moment. */
const PLACE: Record<DisputeStep, number> = { open: 0, chargeBack: 1, reverse: 2, secondChargeback: 3, lose: 4, close: 4, win: 5 };

const byAcquirerOrder = (a: DisputeFact, b: DisputeFact) =>
  a.occurredAt.getTime() - b.occurredAt.getTime() || PLACE[a.step] - PLACE[b.step] || a.arrival - b.arrival;

const fits = (step: DisputeMove, state: DisputeState) => (DISPUTE_LIFECYCLE.moves[step].from as readonly string[]).includes(state);

/**
 * The dispute's state as its facts say, whatever order they came in (docs/decisions/0020-acquirer-events-as-facts.md):
 * from `notified`, the earliest fact (by the acquirer's date, then its place in the flow) that fits the state is
 * applied, again and again; a fact that fits no state reached yet waits for the event it follows. The same set of
 * facts always gives the same answer, so an event arriving late changes the state exactly as if it had come in time.
 */
export function foldDisputeFacts(facts: readonly DisputeFact[]): DisputeHistory {
  let status: DisputeState = DISPUTE_LIFECYCLE.initial;
  const path: DisputeMove[] = [];
  const pending = [...facts].filter((fact) => fact.step !== 'open').sort(byAcquirerOrder);
  for (let next = pending.findIndex((f) => fits(f.step as DisputeMove, status)); next >= 0; next = pending.findIndex((f) => fits(f.step as DisputeMove, status))) {
    const [fact] = pending.splice(next, 1);
    const move = fact.step as DisputeMove;
    status = DISPUTE_LIFECYCLE.moves[move].to;
    path.push(move);
  }
  return { status, path, waiting: pending };
}

/**
 * The shortest run of the table's moves from one state to another, or null when there is none (a decided dispute a late
 * event contradicts): how the stored state follows the facts when a late event changed their order.
 */
export function movesBetween(from: DisputeState, to: DisputeState): DisputeMove[] | null {
  const routes = new Map<DisputeState, DisputeMove[]>([[from, []]]);
  const queue: DisputeState[] = [from];
  while (queue.length) {
    const state = queue.shift()!;
    if (state === to) return routes.get(state)!;
    for (const [name, move] of Object.entries(DISPUTE_LIFECYCLE.moves) as [DisputeMove, (typeof DISPUTE_LIFECYCLE.moves)[DisputeMove]][]) {
      if (!(move.from as readonly string[]).includes(state) || routes.has(move.to)) continue;
      routes.set(move.to, [...routes.get(state)!, name]);
      queue.push(move.to);
    }
  }
  return null;
}
