import type { Admin } from '../admins/admin.entity';
import type { Shop } from '../shops/shop.entity';

/** Who is calling: a seller through its shop's API key, one of our admins, or the public checkout page. */
export type Actor =
  /** `shop` is a reference (only its id is set), made on first use: load it when more is needed. */
  | { kind: 'seller'; shopId: string; readonly shop: Shop }
  /** `tokenId`: the admin token this request came with. */
  | { kind: 'admin'; admin: Admin; tokenId: string }
  | { kind: 'public' };
