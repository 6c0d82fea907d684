export { REQUEST_LOG_RETENTION_DAYS, requestLogEntry, startRequestLog } from './request-log';

// Types
export type { RequestLog, SeenRequest } from './request-log';
export type { RequestLogContext } from './request-log-context';
