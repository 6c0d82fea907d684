// Files that load no other module come first: a cycle back into this index finds them loaded
export { REQUEST_LOG_RETENTION_DAYS, requestLogEntry, startRequestLog } from './request-log';

// Files that load other modules
export { RequestLogResolver } from './request-log.resolver';

// Types
export type { RequestLog, SeenRequest } from './request-log';
export type { RequestLogContext } from './request-log-context';
