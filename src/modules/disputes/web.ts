export { DisputeObject } from './dispute.object';
export { DisputeAdminResolver } from './dispute-admin.resolver';
export { DisputeFieldsResolver, SellerDisputesResolver } from './seller-disputes.resolver';
