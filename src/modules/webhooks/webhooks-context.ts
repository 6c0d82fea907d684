import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Admin, } from '../admins';
import type { SecretBox, Shop } from '../identity';
import type { WebhookAttempt } from './webhook-attempt.entity';
import type { WebhookServices } from './webhook-settings.service';

/** What the webhooks module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface WebhooksContext extends RequestScope<Caller<Admin, Shop>> {
  services: { webhooks: WebhookServices; accounts: { secrets: SecretBox } };
  /** A delivery's attempts, oldest first (attemptsOfDeliveries), batched over a page of deliveries. */
  loaders: { attemptsOfDelivery: DataLoader<string, WebhookAttempt[]> };
}
