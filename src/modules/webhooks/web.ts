export { WebhookDeliveryObject } from './webhook-delivery.object';
export { WebhookAttemptObject } from './webhook-attempt.object';
