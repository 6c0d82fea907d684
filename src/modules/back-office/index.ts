export type { BackOfficeContext } from './back-office-context';
