// Files that load no other module come first: a cycle back into this index finds them loaded
export { WebhookDelivery } from './webhook-delivery.entity';
export { deliveryQueueDepth } from './delivery-depth-store';
export { deliveriesCommitted } from './outbox-store';
export { checkWebhookUrl } from './webhook-url';

// Files that load other modules
export { emit, emitInStatement } from './outbox';
export { startWebhookRuntime } from './webhook-runtime';

// Types
export type { OutboxEvent, PaymentEventType, WithdrawalEventType } from './outbox';
export type { WebhookRuntime } from './webhook-runtime';
export type { WebhookServices } from './webhook-settings.service';
export type { WebhookUrlPolicy } from './webhook-url';
export type { WebhooksContext } from './webhooks-context';
