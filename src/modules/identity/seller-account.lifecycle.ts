import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * A seller's `account_status`: how far we trust it with money, which caps each payment's amount (docs/admin.md,
 * "Account status and payment limits"). Applied by src/modules/identity/shop-admin.service.ts: an owner admin
 * sets any status from any other, always with a reason, audited on the seller.
 */
export const SELLER_ACCOUNT_LIFECYCLE = defineLifecycle({
  name: 'seller_account',
  title: 'Seller account (account status)',
  table: 'sellers',
  column: 'account_status',
  property: 'accountStatus',
  audits: 'seller',
  initial: 'new',
  states: {
    new: { meaning: 'a new seller: PAYMENT_MAX_CENTS_NEW caps each payment' },
    verified: { meaning: 'checked: PAYMENT_MAX_CENTS_VERIFIED caps each payment' },
    restricted: { meaning: 'under watch: PAYMENT_MAX_CENTS_RESTRICTED caps each payment' },
  },
  moves: {
    markNew: { from: ['new', 'verified', 'restricted'], to: 'new', on: 'an owner admin set it to new, with a reason', audit: 'seller.account_status_changed' },
    verify: { from: ['new', 'verified', 'restricted'], to: 'verified', on: 'an owner admin set it to verified, with a reason', audit: 'seller.account_status_changed' },
    restrict: { from: ['new', 'verified', 'restricted'], to: 'restricted', on: 'an owner admin set it to restricted, with a reason', audit: 'seller.account_status_changed' },
  },
});
