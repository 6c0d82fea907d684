export { AuditEntry } from './audit-entry.entity';
export { moveAuditor, recordAudit, recordAuditApart, recordAuditNow, recordRefusal, SYSTEM_ACTOR } from './audit.service';
export { redactSecrets } from './secret-arguments';

// Types
export type { AuditRecord, AuditTargetType } from './audit.service';
export type { AuditContext } from './audit-context';
