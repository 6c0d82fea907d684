export { Dispute } from './dispute.entity';
export { OPEN_DISPUTE_STATUSES } from './dispute-listing';
export { applyDisputeNotice, chargebackStands, disputeOf, paymentsWithChargebackStanding, reweighDisputes } from './dispute.service';
export type { DisputesContext } from './disputes-context';
