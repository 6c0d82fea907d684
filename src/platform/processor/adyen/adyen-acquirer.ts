import type { Config } from '../../../shared/config';
import type { Acquirer } from '../acquirer-inbound';
import type { RunSql } from '../simulated-operation-store';
import type { AdyenProcessor } from './adyen-processor';
import { adyenNotificationsRouter } from './notification-endpoint';
import { notificationInbox } from './notification-inbox';
import { sqlNotificationStore } from './notification-store';

/**
 * Adyen, both ways (docs/acquirers.md): the Checkout API behind the port, and its standard notifications, accepted by
 * their endpoint into `adyen_notifications` and drained from there. The processor's look-ups read the same table.
 */
export function adyenAcquirer(config: Config, sql: RunSql | undefined, baseUrl: string | undefined): Acquirer {
  const publicUrl = baseUrl ?? config.baseUrl;
  if (!config.adyen || !sql || !publicUrl) throw new Error('the Adyen processor needs its settings, the database and the public base URL');
  const adyen = config.adyen;
  const store = sqlNotificationStore(sql);
  // Loaded only when chosen: Adyen's library takes longer to load than the rest of the service together.
  const { AdyenProcessor: Adyen } = require('./adyen-processor') as { AdyenProcessor: typeof AdyenProcessor };
  return {
    // The checkout page's origin (BASE_URL without its path): Adyen's `origin` for 3-D Secure 2.
    processor: new Adyen(adyen, store, new URL(publicUrl).origin),
    inbox: notificationInbox(store),
    endpoint: adyenNotificationsRouter({
      credentials: { username: adyen.notificationUsername, password: adyen.notificationPassword, hmacKey: adyen.hmacKey },
      merchantAccount: adyen.merchantAccount,
      store,
    }),
  };
}
