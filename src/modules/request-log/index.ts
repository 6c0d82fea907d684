export { REQUEST_LOG_RETENTION_DAYS, requestLogEntry, startRequestLog } from './request-log';
export { RequestLogResolver } from './request-log.resolver';

// Types
export type { RequestLog, SeenRequest } from './request-log';
export type { RequestLogContext } from './request-log-context';
