import type { EntityManager } from '@mikro-orm/postgresql';
import { runMoveStatement } from '../../platform/lifecycle/move-statement';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import type { CardSummary } from './card-intake';

/**
 * The card claim: the payment table's `submitCard` move in the move engine's one-statement form, on a pooled
 * connection (the move writes no effects; through applyMove's query builder the same UPDATE cost about a third of
 * the claim's CPU; docs/decisions/0003-completion-statement.md). True for exactly one caller per payment: the one
 * whose UPDATE found it in the move's state and stage, created after `createdAfter` (its expiry deadline; the
 * expiry move names the same row, so exactly one of the two lands).
 */
export async function claimForCard(em: EntityManager, paymentId: string, createdAfter: Date, card: CardSummary): Promise<boolean> {
  const [row] = await runMoveStatement(em, PAYMENT_LIFECYCLE, 'submitCard', {
    id: paymentId,
    set: {
      processing_since: { sql: '?', params: [new Date()] },
      card_brand: { sql: '?', params: [card.brand] },
      card_last4: { sql: '?', params: [card.last4] },
      card_exp_month: { sql: '?', params: [card.expMonth] },
      card_exp_year: { sql: '?', params: [card.expYear] },
    },
    condition: { sql: '"created_at" > ?', params: [createdAfter] },
    select: { sql: 'select count(*)::int as moved from moved', params: [] },
  });
  return row.moved === 1;
}
