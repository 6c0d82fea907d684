import type { EntityManager } from '@mikro-orm/postgresql';
import { pooledQuery } from '../db/pooled-query';
import { PAYMENT_LIFECYCLE } from '../lifecycles/payment.lifecycle';
import type { CardSummary } from './card-intake';

/** The payment table's `submitCard` move, which this statement writes. */
const SUBMIT_CARD = (() => {
  const move = PAYMENT_LIFECYCLE.moves.submitCard;
  if (!move.stage || move.from.length !== 1 || move.stage.from.length !== 1) throw new Error("the payment table's submitCard move must leave one state and one stage");
  return { from: move.from[0], to: move.to, stageFrom: move.stage.from[0], stageTo: move.stage.to };
})();

const CLAIM = `update "payments"
    set "status" = $1, "checkout_stage" = $2, "processing_since" = $3,
        "card_brand" = $4, "card_last4" = $5, "card_exp_month" = $6, "card_exp_year" = $7
  where "id" = $8 and "status" = $9 and "checkout_stage" = $10 and "created_at" > $11
  returning "id"`;

/**
 * The card claim: the `submitCard` move as one plain UPDATE on a pooled connection (it writes no effects, so
 * applyMove would run the same single statement through the query builder, which cost about a third of the
 * claim's CPU; docs/decisions/0003-completion-statement.md). The move's states come from the lifecycle table. True for exactly one
 * caller per payment: the one whose UPDATE found it `pending` at `card_required` and created after
 * `createdAfter` (its expiry deadline; the expiry move names the same row, so exactly one of the two lands).
 */
export async function claimForCard(em: EntityManager, paymentId: string, createdAfter: Date, card: CardSummary): Promise<boolean> {
  const rows = await pooledQuery(em, CLAIM, [
    SUBMIT_CARD.to, SUBMIT_CARD.stageTo, new Date(), card.brand, card.last4, card.expMonth, card.expYear,
    paymentId, SUBMIT_CARD.from, SUBMIT_CARD.stageFrom, createdAfter,
  ]);
  return rows.length === 1;
}
