import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * A finance admin's word for the acquirer's answer that never reached us (docs/admin.md, "Settling by hand"): a
 * payment or refund whose outcome the acquirer knows, read in its own records, and that no notification or look-up
 * settled. It moves money, so a second finance admin confirms it (four eyes); confirming settles the payment or refund
 * through the same moves as the acquirer's own answer (src/modules/checkout/settlement-proposals.ts).
 */
export const SETTLEMENT_PROPOSAL_LIFECYCLE = defineLifecycle({
  name: 'settlement_proposal',
  title: 'Settlement by hand (a proposed acquirer answer)',
  table: 'settlement_proposals',
  column: 'status',
  initial: 'proposed',
  states: {
    proposed: { meaning: "a finance admin recorded what the acquirer's records say; nothing moved yet" },
    confirmed: { meaning: 'another finance admin confirmed it: the payment or refund was settled by that answer (or had been settled already)', final: true },
    rejected: { meaning: 'set aside with a reason (by its proposer or another admin): nothing moved', final: true },
  },
  moves: {
    confirm: {
      from: ['proposed'], to: 'confirmed', on: 'a finance admin other than the proposer confirmed it, with a reason',
      audit: 'settlement_proposal.confirmed', notByRequester: true, verb: 'confirmed',
    },
    reject: { from: ['proposed'], to: 'rejected', on: 'a finance admin set it aside, with a reason', audit: 'settlement_proposal.rejected', verb: 'rejected' },
  },
});
