export { RequestLogResolver } from './request-log.resolver';
