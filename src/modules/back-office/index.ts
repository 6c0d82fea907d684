// Files that load no other module come first: a cycle back into this index finds them loaded
export { adminConsoleRouter } from './admin-page';

// Files that load other modules
export { PaymentAdminResolver } from './payment-admin.resolver';
export { WorkQueueResolver } from './work-queue.resolver';
export { queueDashboardRouter } from './queue-dashboard';
export type { BackOfficeContext } from './back-office-context';
