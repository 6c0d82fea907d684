export { Admin } from './admin.entity';
export { ADMIN_ROLES, AdminRole, parseAdminRole } from './admin-role';
export { ReviewedByAdmins, reviewQueue } from './reviewed-by-admins';
export { adminIdFor, refuseAdmin } from './admin-refusal';
export { adminCredentials } from './admin-credential-store';
export { adminByEmail, adminForToken, createAdmin, revokeAdmin } from './admin.service';
export type { AdminsContext } from './admins-context';
