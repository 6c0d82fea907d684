import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * A seller's `status`: whether its keys and dashboard work at all (docs/admin.md, "Sellers and shops"). Applied by
 * src/modules/identity/shop-admin.service.ts (an owner admin's decision). Apart from the account status
 * (seller-account.lifecycle.ts), which caps its payments' amounts.
 */
export const SELLER_LIFECYCLE = defineLifecycle({
  name: 'seller',
  title: 'Seller (status)',
  table: 'sellers',
  column: 'status',
  initial: 'active',
  states: {
    active: { meaning: 'its keys and dashboard work' },
    inactive: { meaning: 'its keys answer 403 Seller account inactive (no move sets it: the column and the API allow it)' },
    suspended: { meaning: 'its keys answer 403 Seller account inactive; its dashboard sessions ended' },
  },
  moves: {
    suspend: {
      from: ['active', 'inactive', 'suspended'], to: 'suspended',
      on: 'an owner admin suspended it, with a reason (its dashboard sessions end in the same transaction)',
      audit: 'seller.suspended',
    },
    reactivate: {
      from: ['active', 'inactive', 'suspended'], to: 'active',
      on: 'an owner admin reactivated it',
      audit: 'seller.reactivated',
    },
  },
});
