import type { EntityManager } from '@mikro-orm/postgresql';
import type { DisputeStep } from './dispute.lifecycle';
import type { DisputeFact } from './dispute-facts';

// The events each dispute was told (`dispute_events`): the facts its state is derived from (dispute-facts.ts).

/** Keeps one event of a dispute; a step told again (the acquirer retries, or two event codes mean one step) keeps the first. */
export async function recordDisputeFact(tx: EntityManager, disputeId: string, fact: { step: DisputeStep; occurredAt: Date; amount: number }): Promise<void> {
  await tx.execute(
    `insert into "dispute_events" ("dispute_id", "step", "event_date", "amount") values (?, ?, ?, ?) on conflict ("dispute_id", "step") do nothing`,
    [disputeId, fact.step, fact.occurredAt, fact.amount],
  );
}

/** Every event a dispute was told, in arrival order. */
export async function disputeFacts(tx: EntityManager, disputeId: string): Promise<DisputeFact[]> {
  const rows = await tx.execute<{ id: string; step: DisputeStep; event_date: string | Date }[]>(
    `select "id", "step", "event_date" from "dispute_events" where "dispute_id" = ? order by "id"`,
    [disputeId],
  );
  return rows.map((row) => ({ step: row.step, occurredAt: new Date(row.event_date), arrival: Number(row.id) }));
}
