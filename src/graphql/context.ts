import type { EntityManager } from '@mikro-orm/postgresql';
import type { Admin } from '../admins/admin.entity';
import type { Shop } from '../shops/shop.entity';

/** Who is calling: a seller through its shop's API key, one of our admins, or the public checkout page. */
export type Actor =
  | { kind: 'seller'; shop: Shop }
  | { kind: 'admin'; admin: Admin }
  | { kind: 'public' };

export type Role = 'SELLER' | 'ADMIN';

/** One per request: its own unit of work (a forked EntityManager), its caller and its id. */
export interface GraphQLContext {
  em: EntityManager;
  actor: Actor;
  requestId: string;
  baseUrl: string;
}
