export { AuditEntryObject } from './audit-entry.object';
export { AuditResolver } from './audit.resolver';
