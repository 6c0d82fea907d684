import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * A shop's `status`: whether its keys work (docs/admin.md, "Sellers and shops"). Applied by
 * src/modules/identity/shop-admin.service.ts (an owner admin's decision). Deleting a shop is not a status: it
 * sets `deleted_at`, whatever the status.
 */
export const SHOP_LIFECYCLE = defineLifecycle({
  name: 'shop',
  title: 'Shop (status)',
  table: 'shops',
  column: 'status',
  initial: 'active',
  states: {
    active: { meaning: 'its keys work and it takes payments' },
    inactive: { meaning: 'its keys answer 401 Shop is inactive; its seller\'s dashboard sessions ended' },
  },
  moves: {
    deactivate: {
      from: ['active', 'inactive'], to: 'inactive',
      on: 'an owner admin deactivated it, with a reason (the seller\'s dashboard sessions end in the same transaction)',
      audit: 'shop.deactivated',
    },
    reactivate: {
      from: ['active', 'inactive'], to: 'active',
      on: 'an owner admin reactivated it',
      audit: 'shop.reactivated',
    },
  },
});
