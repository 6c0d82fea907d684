// Files that load no other module come first: a cycle back into this index finds them loaded
export { Dispute } from './dispute.entity';
export { OPEN_DISPUTE_STATUSES } from './dispute-listing';

// Files that load other modules
export { applyDisputeNotice, chargebackStands, disputeOf, paymentsWithChargebackStanding, reweighDisputes } from './dispute.service';
export { DisputeAdminResolver } from './dispute-admin.resolver';
export { DisputeFieldsResolver, SellerDisputesResolver } from './seller-disputes.resolver';
export type { DisputesContext } from './disputes-context';
