import type { EntityManager } from '@mikro-orm/postgresql';
import { SellerStatus } from './seller.entity';
import { ShopStatus } from './shop.entity';
import { lockPaymentShopStanding } from './standing-store';
import type { ShopStanding } from './standing-store';
export type { ShopStanding } from './standing-store';

/**
 * A shop takes card payments only while it is active and not deleted and its seller is active: the same
 * conditions under which its API key works (an inactive shop is 401, a suspended or inactive seller 403).
 */
export function takesPayments(standing: ShopStanding): boolean {
  return standing.shopStatus === ShopStatus.ACTIVE && !standing.shopDeleted && standing.sellerStatus === SellerStatus.ACTIVE;
}

/**
 * `takesPayments` as a SQL condition over a shop row `sh` and its seller row `se`, for a statement that must
 * decide in the database (checkout/completion-statement.ts); test/integration/checkout/checkout-shop-standing.test.ts
 * holds the two to each other.
 */
export const TAKES_PAYMENTS_SQL = `sh."status" = '${ShopStatus.ACTIVE}' and sh."deleted_at" is null and se."status" = '${SellerStatus.ACTIVE}'`;

export function standingOf(shop: { status: ShopStatus; deletedAt: Date | null; seller: { status: SellerStatus } }): ShopStanding {
  return { shopStatus: shop.status, shopDeleted: shop.deletedAt !== null, sellerStatus: shop.seller.status };
}

/**
 * The standing of a payment's shop read under `FOR SHARE` locks on the shop and seller rows, inside the
 * caller's transaction: a suspension, deactivation or deletion (an UPDATE of one of those rows) waits for
 * the transaction to end, and one committed just before is seen. So no payment completes after the admin
 * was told the seller is suspended.
 */
export async function lockedStandingOfPaymentShop(tx: EntityManager, paymentId: string): Promise<ShopStanding> {
  return lockPaymentShopStanding(tx, paymentId);
}
