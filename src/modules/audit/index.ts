export { AuditEntry } from './audit-entry.entity';
export { recordAudit, recordAuditApart, recordAuditNow, recordRefusal, SYSTEM_ACTOR } from './audit.service';
export { redactSecrets } from './secret-arguments';
export { applyMove } from './apply-move';
export { applyReviewMove } from './review-move';
export { AuditResolver } from './audit.resolver';

// Types
export type { AuditRecord, AuditTargetType } from './audit.service';
export type { MoveEffects, MoveRequest } from './apply-move';
export type { AuditContext } from './audit-context';
