import type { ErrorCode } from '../../shared/errors';

/**
 * Who is calling: a seller through its shop's API key or a dashboard session, one of our admins, or the public.
 * The admin, the shop and the account status are the modules' types (admins, identity): the interface layer names
 * them (src/api/http/actor.ts), a module names the ones it reads, and this layer knows only the shape.
 */
export type Caller<TAdmin = unknown, TShop = unknown, TAccountStatus = unknown> =
  /** `shop` is a reference (only its id is set), made on first use: load it when more is needed. */
  /** `accountStatus`: the seller's, as cached with the key (it caps the amount of a new payment). */
  | { kind: 'seller'; shopId: string; accountStatus: TAccountStatus; readonly shop: TShop }
  /** `tokenId`: the admin token this request came with; `sessionId`: the admin console session instead (docs/admin.md). */
  | { kind: 'admin'; admin: TAdmin; tokenId: string | null; sessionId?: string }
  /**
   * A seller signed in to the dashboard (docs/dashboard.md): reaches exactly what the seller's API key
   * reaches. `shopId` is null while the seller has no live shop (after deleting it). `changesRefused`: null, or
   * the catalogue code every mutation but signing out is refused with (a shop an admin deactivated or closed:
   * src/modules/identity/session-standing.ts).
   */
  | { kind: 'session'; sellerId: string; sessionId: string; shopId: string | null; changesRefused: ErrorCode | null; readonly shop: TShop }
  | { kind: 'public' };
