// Files that load no other module come first: a cycle back into this index finds them loaded
export { newWebhookDeliveryId, WebhookDelivery } from './webhook-delivery.entity';
export { NEXT_SEQUENCE_SQL } from './outbox-store';
export { checkWebhookUrl } from './webhook-url';

// Files that load other modules
export { paymentEventDraft, recordPaymentEvent, recordWithdrawalEvent } from './outbox';
export { startWebhookRuntime } from './webhook-runtime';

// Types
export type { PaymentEventDraft, PaymentEventType, WithdrawalEventType } from './outbox';
export type { WebhookRuntime } from './webhook-runtime';
export type { WebhookServices } from './webhook-settings.service';
export type { WebhookUrlPolicy } from './webhook-url';
