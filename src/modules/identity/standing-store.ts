import type { EntityManager } from '@mikro-orm/postgresql';
import type { SellerStatus } from './seller.entity';
import type { SessionStandingRow } from './session-standing';
import type { ShopStatus } from './shop.entity';

/** What decides whether a shop may take card payments: its own state and its seller's. */
export interface ShopStanding {
  shopStatus: ShopStatus;
  shopDeleted: boolean;
  sellerStatus: SellerStatus;
}

// The SQL that reads the standing of sellers and shops (src/modules/identity/session-standing.ts and
// payment-standing.ts have the rules).

/** The seller's standing and its live shop (null after it was deleted), in one statement: a session reads it on every request. */
export async function selectSellerStanding(em: EntityManager, sellerId: string): Promise<SessionStandingRow & { shopId: string | null }> {
  const [row]: { seller_status: SellerStatus; shop_id: string | null; shop_status: ShopStatus | null; last_deleted_by_admin: boolean | null }[] = await em.execute(
    `select se."status" as "seller_status", sh."id" as "shop_id", sh."status" as "shop_status",
        (select d."deleted_by_admin" from "shops" d where d."seller_id" = se."id" and d."deleted_at" is not null
          order by d."deleted_at" desc, d."id" desc limit 1) as "last_deleted_by_admin"
       from "sellers" se left join "shops" sh on sh."seller_id" = se."id" and sh."deleted_at" is null
      where se."id" = ?`,
    [sellerId],
  );
  return { sellerStatus: row.seller_status, liveShopStatus: row.shop_status ?? null, lastDeletedByAdmin: row.last_deleted_by_admin, shopId: row.shop_id ?? null };
}

/**
 * The standing of a payment's shop, read under `FOR SHARE` locks on the shop and seller rows in the caller's
 * transaction: a change of either row waits for that transaction to end.
 */
export async function lockPaymentShopStanding(tx: EntityManager, paymentId: string): Promise<ShopStanding> {
  const [row] = await tx.execute<{ shop_status: ShopStatus; deleted_at: Date | null; seller_status: SellerStatus }[]>(
    `select sh."status" as shop_status, sh."deleted_at", se."status" as seller_status
       from "payments" p join "shops" sh on sh."id" = p."shop_id" join "sellers" se on se."id" = sh."seller_id"
      where p."id" = ? for share of sh, se`,
    [paymentId],
  );
  return { shopStatus: row.shop_status, shopDeleted: row.deleted_at !== null, sellerStatus: row.seller_status };
}
