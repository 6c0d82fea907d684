import type { Admin } from '../../modules/admins';
import type { SessionChangeRefusal, AccountStatus, Shop } from '../../modules/identity';

/** Who is calling: a seller through its shop's API key or a dashboard session, one of our admins, or the public. */
export type Actor =
  /** `shop` is a reference (only its id is set), made on first use: load it when more is needed. */
  /** `accountStatus`: the seller's, as cached with the key (it caps the amount of a new payment). */
  | { kind: 'seller'; shopId: string; accountStatus: AccountStatus; readonly shop: Shop }
  /** `tokenId`: the admin token this request came with; `sessionId`: the admin console session instead (docs/admin.md). */
  | { kind: 'admin'; admin: Admin; tokenId: string | null; sessionId?: string }
  /**
   * A seller signed in to the dashboard (docs/dashboard.md): reaches exactly what the seller's API key
   * reaches. `shopId` is null while the seller has no live shop (after deleting it). `changesRefused`: null, or
   * the catalogue code every mutation but signing out is refused with (a shop an admin deactivated or closed:
   * src/modules/identity/session-standing.ts).
   */
  | { kind: 'session'; sellerId: string; sessionId: string; shopId: string | null; changesRefused: SessionChangeRefusal | null; readonly shop: Shop }
  | { kind: 'public' };
