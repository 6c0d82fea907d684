export { adminConsoleRouter } from './admin-page';
export { PaymentAdminResolver } from './payment-admin.resolver';
export { WorkQueueResolver } from './work-queue.resolver';
export { queueDashboardRouter } from './queue-dashboard';
