export { Dispute } from './dispute.entity';
export { DisputeObject } from './dispute.object';
export { OPEN_DISPUTE_STATUSES } from './dispute-listing';
export { applyDisputeNotice, chargebackStands, disputeOf, paymentsWithChargebackStanding, reweighDisputes } from './dispute.service';
export { DisputeAdminResolver } from './dispute-admin.resolver';
export { DisputeFieldsResolver, SellerDisputesResolver } from './seller-disputes.resolver';
export type { DisputesContext } from './disputes-context';
