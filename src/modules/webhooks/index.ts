export { WebhookDelivery } from './webhook-delivery.entity';
export { deliveryQueueDepth } from './delivery-depth-store';
export { deliveriesCommitted } from './outbox-store';
export { checkWebhookUrl } from './webhook-url';
export { attemptsOfDeliveries } from './webhook-settings.service';

export { emit, emitInStatement } from './outbox';
export { startWebhookRuntime } from './webhook-runtime';

// Types
export type { OutboxEvent, PaymentEventType, WithdrawalEventType } from './outbox';
export type { WebhookAttempt } from './webhook-attempt.entity';
export type { WebhookRuntime } from './webhook-runtime';
export type { WebhookServices } from './webhook-settings.service';
export type { WebhookUrlPolicy } from './webhook-url';
export type { WebhooksContext } from './webhooks-context';
