export { AdminObject } from './admin.object';
export { AdminTokenObject } from './admin-token.object';
export { ReviewedByAdminsObject } from './reviewed-by-admins.object';
export { AdminResolver } from './admin.resolver';
