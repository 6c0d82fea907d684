import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * A dispute the acquirer notified against a completed payment (src/modules/disputes/; docs/acquirers.md lists which
 * Adyen event makes which move). One per acquirer dispute reference: a payment may be disputed again after an
 * inquiry closed. Its state follows the events it was told, in the acquirer's order whatever order they came in
 * (dispute-facts.ts). Every move that moves money books its own named journal against the account liable for the
 * dispute: the seller's balance, or the platform's dispute account for what the seller had already refunded.
 */
export const DISPUTE_LIFECYCLE = defineLifecycle({
  name: 'dispute',
  title: 'Dispute (chargeback)',
  table: 'disputes',
  column: 'status',
  initial: 'notified',
  states: {
    notified: { meaning: 'the issuer opened an inquiry (notification of chargeback, request for information): no money moved' },
    charged_back: { meaning: 'the disputed amount was taken back by the issuer: the liable account is debited' },
    reversed: { meaning: 'the chargeback was defended: the amount is credited back (a second chargeback may still come)' },
    second_chargeback: { meaning: 'the issuer declined the defence: the liable account is debited again' },
    won: { meaning: 'the pre-arbitration or arbitration was won: the amount is credited back', final: true },
    lost: { meaning: 'the dispute was lost: the debit stands (only a scheme arbitration ruling can still return it)', decided: true },
    closed: { meaning: 'ended with no money moved (the inquiry expired, or the issuer accepted the defence)', final: true },
  },
  moves: {
    chargeBack: { from: ['notified'], to: 'charged_back', on: 'CHARGEBACK', journal: 'chargeback' },
    reverse: { from: ['charged_back'], to: 'reversed', on: 'CHARGEBACK_REVERSED', journal: 'chargeback_reversed' },
    secondChargeback: { from: ['reversed'], to: 'second_chargeback', on: 'SECOND_CHARGEBACK', journal: 'second_chargeback' },
    win: { from: ['second_chargeback', 'lost'], to: 'won', on: 'PREARBITRATION_WON, SCHEME_ARBITRATION_WON', journal: 'dispute_won' },
    lose: { from: ['charged_back', 'second_chargeback'], to: 'lost', on: 'PREARBITRATION_LOST, SCHEME_ARBITRATION_LOST, DISPUTE_DEFENSE_PERIOD_ENDED (not defended)' },
    close: { from: ['notified', 'reversed'], to: 'closed', on: 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED (the issuer accepted the defence or did not respond)' },
  },
  stays: {
    'an event that comes before the one it follows': { in: ['notified', 'charged_back', 'reversed', 'second_chargeback', 'lost'], then: 'kept; applied, with its journal, the moment its predecessor arrives' },
    'a refund of the payment settles, fails or is reversed': { in: ['charged_back', 'second_chargeback', 'lost'], then: "the seller's share is weighed again; the change is booked as `dispute_share`" },
  },
});

/** A move of the dispute table. */
export type DisputeMove = keyof typeof DISPUTE_LIFECYCLE.moves;

/** What an acquirer's dispute event does: open the dispute (an inquiry, no money), or one of the table's moves. */
export type DisputeStep = 'open' | DisputeMove;
