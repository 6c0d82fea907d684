import type { Admin } from '../../modules/admins';
import type { AccountStatus, Shop } from '../../modules/identity';
import type { Caller } from '../../platform/http/caller';

/** The caller as this service knows it: the platform's shape with the modules' admin, shop and account status. */
export type Actor = Caller<Admin, Shop, AccountStatus>;
