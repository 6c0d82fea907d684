/**
 * The webhook events a shop may choose to receive besides `payment.completed`, which every shop with a
 * webhook URL receives (the spec documents it). Payloads: README, "Webhooks" (one serialization, outbox.ts).
 */
export const OPTIONAL_WEBHOOK_EVENTS = ['payment.failed', 'payment.refunded', 'refund.failed', 'withdrawal.paid', 'withdrawal.rejected'] as const;
export type OptionalWebhookEvent = (typeof OPTIONAL_WEBHOOK_EVENTS)[number];
export type WebhookEventType = 'payment.completed' | OptionalWebhookEvent;

/** Whether a shop that chose `chosen` gets a delivery of `type`. */
export function shopReceives(chosen: readonly string[], type: WebhookEventType): boolean {
  return type === 'payment.completed' || chosen.includes(type);
}

/** The chosen list as stored: known names only, each once, in the documented order. */
export function validWebhookEvents(events: readonly string[]): OptionalWebhookEvent[] | null {
  if (events.some((e) => !(OPTIONAL_WEBHOOK_EVENTS as readonly string[]).includes(e) && e !== 'payment.completed')) return null;
  return OPTIONAL_WEBHOOK_EVENTS.filter((e) => events.includes(e));
}
