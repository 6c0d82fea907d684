import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { applyAcquirerEvent } from '../checkout/acquirer-events';
import type { CheckoutDeps } from '../checkout/checkout.service';
import { basicAuthMatches, eventOf, keptOf, notificationItems, signatureValid, type NotificationCredentials } from '../processor/adyen/notifications';
import type { NotificationStore } from '../processor/adyen/notification-store';
import type { RateLimiter } from '../rate-limit/rate-limiter';
import { clientAddress, locals } from './request-context';

export interface AdyenNotificationDeps {
  credentials: NotificationCredentials;
  merchantAccount: string;
  store: NotificationStore;
  checkout: CheckoutDeps;
  orm: MikroORM;
  /** Failed authentications per client address (the same budget as wrong API keys). */
  authFailures: RateLimiter;
  logger: Logger;
}

export const ADYEN_NOTIFICATIONS_PATH = '/acquirer/adyen/notifications';

/**
 * `POST /acquirer/adyen/notifications`: Adyen's standard notifications (docs/acquirers.md). Trusted only
 * with the right basic-auth credentials AND a valid HMAC on every item; otherwise refused whole (401),
 * changing nothing, and counted against the caller's address like a wrong API key (429 past the limit).
 * Each item is applied, then kept once per (pspReference, eventCode): a replay is acknowledged and changes
 * nothing, and an item whose application failed is not kept, so Adyen's retry applies it. Answers
 * `[accepted]`, as Adyen requires.
 */
export function adyenNotificationsRouter(deps: AdyenNotificationDeps): express.Router {
  const router = express.Router();
  // Credentials first: nobody else gets as far as having a body parsed.
  const authenticated: express.RequestHandler = (req, res, next) => {
    if (basicAuthMatches(req.get('authorization'), deps.credentials)) return next();
    refuse(deps, req, res, 'wrong credentials').catch(next);
  };
  router.post(ADYEN_NOTIFICATIONS_PATH, authenticated, express.json({ limit: '1mb' }), async (req, res, next) => {
    try {
      const items = notificationItems(req.body);
      if (!items) return res.status(400).type('text/plain').send('not a standard notification');
      if (!items.every((item) => signatureValid(item, deps.credentials.hmacKey))) return await refuse(deps, req, res, 'wrong HMAC signature');
      for (const item of items) {
        if (item.merchantAccountCode !== deps.merchantAccount) {
          deps.logger.warn({ merchantAccount: item.merchantAccountCode, eventCode: item.eventCode }, 'adyen notification for another merchant account: ignored');
          continue;
        }
        const kept = keptOf(item);
        if (await deps.store.seen(kept.pspReference, kept.eventCode)) continue;
        const effect = await applyAcquirerEvent(deps.checkout, deps.orm.em.fork(), eventOf(item));
        await deps.store.keep(kept);
        deps.logger.info({ requestId: locals(res).requestId, eventCode: kept.eventCode, merchantReference: kept.merchantReference, success: kept.success, effect }, 'adyen notification');
      }
      res.status(200).type('text/plain').send('[accepted]');
    } catch (error) {
      next(error);
    }
  });
  return router;
}

async function refuse(deps: AdyenNotificationDeps, req: Request, res: Response, why: string): Promise<void> {
  const decision = await deps.authFailures.consume(clientAddress(req));
  deps.logger.warn({ requestId: locals(res).requestId, why }, 'adyen notification refused');
  if (!decision.allowed) {
    res.status(429).setHeader('Retry-After', String(decision.retryAfterSeconds));
    res.type('text/plain').send('too many failed attempts');
    return;
  }
  res.status(401).setHeader('WWW-Authenticate', 'Basic realm="adyen-notifications"');
  res.type('text/plain').send('unauthorized');
}
