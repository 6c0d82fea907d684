import express, { type Request, type Response } from 'express';
import { clientAddress, locals } from '../../http/request-context';
import type { InboundEndpoint, InboundHandler } from '../acquirer-inbound';
import type { NotificationStore } from './notification-store';
import { basicAuthMatches, metricEvent, notificationItems, readItem, signatureValid, type NotificationCredentials } from './notifications';

/** What the endpoint is set up with: whom it trusts, the merchant account it serves, where it keeps the items. */
export interface AdyenNotificationSettings {
  credentials: NotificationCredentials;
  merchantAccount: string;
  store: NotificationStore;
}

type AdyenNotificationDeps = AdyenNotificationSettings & InboundHandler;

export const ADYEN_NOTIFICATIONS_PATH = '/acquirer/adyen/notifications';

/**
 * `POST /acquirer/adyen/notifications`: Adyen's standard notifications (docs/acquirers.md). Trusted only
 * with the right basic-auth credentials AND a valid HMAC on every item; otherwise refused whole (401),
 * changing nothing, and counted against the caller's address like a wrong API key (429 past the limit).
 * Then every item is stored durably, once per (pspReference, eventCode, success), and the batch answered
 * `[accepted]`, as Adyen requires; the inbox applies the items afterwards, with retries. Nothing that goes
 * wrong while applying makes Adyen resend the batch. A malformed item is stored as rejected (flagged for
 * admins); it does not refuse the others.
 */
export const adyenNotificationsRouter = (settings: AdyenNotificationSettings): InboundEndpoint => (handler) => {
  const deps: AdyenNotificationDeps = { ...settings, ...handler };
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
      for (const item of items) await store(deps, res, item);
      res.status(200).type('text/plain').send('[accepted]');
      deps.accepted();
    } catch (error) {
      next(error);
    }
  });
  return router;
};

async function store(deps: AdyenNotificationDeps, res: Response, item: Record<string, unknown>): Promise<void> {
  const requestId = locals(res).requestId;
  if (item.merchantAccountCode !== deps.merchantAccount) {
    deps.logger.warn({ requestId, merchantAccount: item.merchantAccountCode, eventCode: item.eventCode }, 'adyen notification for another merchant account: ignored');
    return;
  }
  const read = readItem(item);
  if ('rejected' in read) {
    const fresh = await deps.store.reject(read.rejected);
    deps.metrics.acquirerNotifications.inc({ event: metricEvent(read.rejected.eventCode), outcome: fresh ? 'rejected' : 'duplicate' });
    if (fresh) deps.logger.error({ requestId, pspReference: read.rejected.pspReference, problem: read.rejected.problem }, 'adyen notification item rejected: kept and flagged for admins');
    return;
  }
  const fresh = await deps.store.accept(read.kept);
  deps.metrics.acquirerNotifications.inc({ event: metricEvent(read.kept.eventCode), outcome: fresh ? 'accepted' : 'duplicate' });
  deps.logger.info({ requestId, eventCode: read.kept.eventCode, merchantReference: read.kept.merchantReference, success: read.kept.success, fresh }, 'adyen notification accepted');
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
