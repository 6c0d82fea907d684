export { AuditEntry } from './audit-entry.entity';
export { AuditEntryObject } from './audit-entry.object';
export { moveAuditor, recordAudit, recordAuditApart, recordAuditNow, recordRefusal, SYSTEM_ACTOR } from './audit.service';
export { redactSecrets } from './secret-arguments';
export { AuditResolver } from './audit.resolver';

// Types
export type { AuditRecord, AuditTargetType } from './audit.service';
export type { AuditContext } from './audit-context';
