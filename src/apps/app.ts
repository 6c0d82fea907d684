import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Queue } from 'bull';
import { dashboardRouter, dashboardExportsRouter } from '../modules/dashboard/web';
import { adminConsoleRouter, queueDashboardRouter } from '../modules/back-office/web';
import { issuerRedirectFor, paymentExists, returnFromIssuer } from '../modules/checkout';
import { checkoutPageRouter } from '../modules/checkout/web';
import { clientAddress } from '../platform/http/request-context';
import type { Config } from '../shared/config';
import type { AppServices } from '../api/graphql/context';
import { graphqlRouter } from '../api/graphql/graphql-server';
import { loadOperations } from '../api/graphql/operations';
import { apiReferenceRouter } from '../api/rest/api-reference';
import { compressedAnswers } from '../api/rest/compressed-answers';
import { restRouter } from '../api/rest/rest-router';
import { openStreams } from '../api/rest/sse-stream';
import { sendError } from '../platform/http/envelope';
import { domainError } from '../shared/errors';
import { errorAnswer } from '../platform/http/error-answer';
import type { Redis } from '../shared/redis';
import type { RateLimits } from '../api/http/authenticate';
import { health } from '../platform/http/health';
import { metricsEndpoint, requestMetrics } from '../platform/observability/metrics';
import { type QueueCounts, sampleQueueDepth } from '../platform/observability/queue-depth';
import { deliveryQueueDepth } from '../modules/webhooks';
import { refundQueueDepth } from '../modules/refunds';
import { countPaymentsNeedingAttention, paymentLanguageOf, rememberPaymentLanguage } from '../modules/payments';
import { MAIL_LIFECYCLE } from '../modules/notifications/mail.lifecycle';
import { enumOf } from '../platform/lifecycle/lifecycle';
import { mailQueueDepth } from '../modules/notifications';
import { MAIL_VIEWER_PATH, mailViewerOn, mailViewerRouter } from '../modules/notifications/web';
import { watchLedger, type StatementKeys } from '../modules/ledger';
import { statementKeysRouter } from '../modules/ledger/web';
import { locals, requestContext } from '../platform/http/request-context';
import { securityHeaders } from '../platform/http/security-headers';
// The tracking page's files, not refunds' index: through the index, a suite that loads refund.service.ts first
// would have refund-tracking.ts read the service's refusal reason before the service has defined it.
import { findTrackedRefund } from '../modules/refunds/refund-tracking';
import { REFUND_PAGE_WINDOW_SECONDS, refundTrackingPageRouter } from '../modules/refunds/refund-tracking-page';
import { createRateLimiter } from '../platform/rate-limit/rate-limiter';
import type { InboundEndpoint } from '../platform/processor/acquirer-inbound';
import { recordApiRequests } from '../api/http/request-log';
import type { RequestLog } from '../modules/request-log';

const MAIL = enumOf(MAIL_LIFECYCLE.states);

export interface AppDeps {
  config: Config;
  /** BASE_URL, or this machine on the port bound. */
  baseUrl: string;
  orm: MikroORM;
  redis: Redis | undefined;
  schema: GraphQLSchema;
  limits: RateLimits;
  services: AppServices;
  /** The bull queues of this process, shown to admins at /admin/queues. */
  queues: Queue[];
  /** Heartbeats of this process's workers (webhooks, mail), which /readyz reports. */
  workers?: Record<string, () => boolean | null>;
  /** Signs sellers' JSON statements; its public keys are served at /.well-known/statement-keys.json. */
  statementKeys: StatementKeys;
  /** The shops' request log: each request of a seller's API key, written after its answer (src/modules/request-log/). */
  requestLog: RequestLog;
  /** The acquirer's notification endpoint (its adapter's: authentication, parsing, its answers); none for the simulator. */
  acquirerEndpoint: InboundEndpoint | null;
  logger: Logger;
}

/** The HTTP application: /livez and /readyz, the REST facade under /api/v1, GraphQL at /graphql, the admin console at /admin. */
export async function createApp(deps: AppDeps): Promise<{ app: Express; drain: () => void; stop: () => Promise<void> }> {
  const { orm, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // req.ip, so every per-client limit (clientAddress), believes X-Forwarded-For only from these proxies.
  app.set('trust proxy', deps.config.trustProxy);
  app.use(securityHeaders(deps.baseUrl));
  app.use(requestContext(orm, logger));
  app.use(requestMetrics(deps.services.metrics));
  const restOperations = loadOperations(deps.schema, 'rest.graphql', (error, context) =>
    logger.error({ requestId: context.requestId, err: error }, 'unexpected error in REST operation'),
  );
  // The dashboard's operations are sent by its page to /graphql; loading them here fails the start if one breaks.
  loadOperations(deps.schema, 'seller-dashboard.graphql', () => undefined);
  loadOperations(deps.schema, 'admin-sign-in.graphql', () => undefined);
  // Large answers of the facade compressed for clients that ask; small ones, event streams and other paths as they are.
  app.use('/api/v1', compressedAnswers());
  // Every request of a seller's key, in its shop's request log once answered (the public document is no one's).
  app.use('/api/v1', recordApiRequests(deps.requestLog, 'rest', deps.services.credentials));
  app.use('/graphql', recordApiRequests(deps.requestLog, 'graphql', deps.services.credentials));
  // Public: the OpenAPI document and its reference page, before the facade's authentication.
  app.use('/api/v1', apiReferenceRouter(deps.baseUrl, restOperations));
  // The facade's event streams stay open: they are ended when the service drains, so shutting down waits for none.
  const streams = openStreams();
  app.use('/api/v1', restRouter({ operations: restOperations, limits: deps.limits, services: deps.services, logger, streams, streamLimits: { pollMs: deps.config.webhooks.streamPollMs } }));
  // After the facade: its calls are most of the traffic and need not be matched against these first.
  const metrics = deps.services.metrics;
  const probes = health(orm, deps.redis, { metrics, workers: deps.workers });
  const ledger = watchLedger(orm, metrics, deps.config.ledgerCheckIntervalMs, logger);
  // Each queue's counts from the module that owns it: the sampler, an adapter, imports no module.
  const queueCounts: QueueCounts = {
    webhookDeliveries: deliveryQueueDepth,
    refunds: refundQueueDepth,
    paymentsNeedingAttention: countPaymentsNeedingAttention,
    mails: mailQueueDepth,
    mailStates: { failed: MAIL.FAILED, unknown: MAIL.UNKNOWN },
  };
  app.get('/metrics', metricsEndpoint(metrics, deps.config.metricsToken, async () => {
    // The readiness checks first: with PostgreSQL away the scrape still answers, and says so (readiness_check_up).
    const readiness = await probes.check();
    ledger.onScrape();
    if (readiness.database === 'up') await sampleQueueDepth(orm, metrics, queueCounts).catch((error: Error) => logger.warn({ err: error.message }, 'queue depths not sampled for /metrics'));
  }));
  app.get('/livez', probes.live);
  app.get(['/readyz', '/healthz'], probes.ready);

  const graphql = await graphqlRouter(deps.schema, deps.limits, deps.services, logger, {
    queryLimits: deps.config.graphqlLimits,
    stackTraces: deps.config.graphqlStackTraces,
  });
  app.use('/graphql', graphql.router);
  // Every acquirer's endpoint is mounted here; what it accepted is applied by the drain it wakes.
  const { inbox } = deps.services.acquirerNotifications;
  if (deps.acquirerEndpoint) app.use(deps.acquirerEndpoint({ accepted: () => inbox.wake(), authFailures: deps.limits.authFailuresPerClient, metrics: deps.services.metrics, logger }));
  app.use(queueDashboardRouter(deps.queues, { sessions: deps.services.accounts.sessions, cookies: deps.services.accounts.cookies, baseUrl: deps.baseUrl }));
  app.use(adminConsoleRouter());
  app.use(dashboardExportsRouter({ sessions: deps.services.accounts.sessions, cookies: deps.services.accounts.cookies, logger, statementSigner: deps.statementKeys.signer }));
  app.use(statementKeysRouter(deps.statementKeys));
  app.use(dashboardRouter());
  app.use(
    checkoutPageRouter({
      paymentExists: (id) => paymentExists(orm.em.fork(), id),
      languages: { of: (id) => paymentLanguageOf(orm.em.fork(), id), choose: (id, language) => rememberPaymentLanguage(orm.em.fork(), id, language) },
      issuer: {
        redirectOf: (id, challengeToken) => issuerRedirectFor(orm.em.fork(), id, challengeToken),
        returnFromIssuer: async (id, redirectResult, returnToken, req) => {
          const caller = { em: orm.em.fork(), clientAddress: clientAddress(req), requestId: locals(req.res!).requestId };
          await returnFromIssuer(deps.services.checkout, caller, id, redirectResult, returnToken);
        },
      },
      onError: (error, req) => logger.error({ requestId: locals(req.res!).requestId, err: error }, 'checkout page failed'),
    }),
  );

  app.use(
    refundTrackingPageRouter({
      findRefund: (token) => findTrackedRefund(orm.em.fork(), token),
      viewsPerClient: createRateLimiter({
        points: deps.config.refundPageViewsPerClient,
        windowSeconds: REFUND_PAGE_WINDOW_SECONDS,
        keyPrefix: `${deps.config.redisKeyPrefix}rl:refund-page`,
        redis: deps.redis,
      }),
      onError: (error, req) => logger.error({ requestId: locals(req.res!).requestId, err: error }, 'refund tracking page failed'),
    }),
  );

  // Without SMTP_URL on a local BASE_URL only: the kept mails, for this machine (never in production: 404 as any path).
  if (mailViewerOn(deps.config, deps.baseUrl)) {
    app.use(mailViewerRouter({ em: () => orm.em.fork(), secrets: deps.services.accounts.secrets, baseUrl: deps.baseUrl }));
    logger.info({ url: `${deps.baseUrl}${MAIL_VIEWER_PATH}` }, `mails are kept, not sent (SMTP_URL is unset): read them at ${deps.baseUrl}${MAIL_VIEWER_PATH} from this machine`);
  }

  // A person opening the service's address in a browser lands on the dashboard; API clients keep the 404 envelope.
  app.get('/', (req, res, next) => (req.accepts(['json', 'html']) === 'html' ? res.redirect(303, '/dashboard') : next()));
  app.use((_req, res) => sendError(res, domainError('ROUTE_NOT_FOUND')));
  app.use(lastErrors(logger));
  const stop = async () => {
    await graphql.stop();
    await ledger.stop();
  };
  const drain = () => {
    probes.drain();
    streams.endAll();
  };
  return { app, drain, stop };
}

/**
 * Errors no router answered (a page path that is not valid percent-encoding, a fault in a page or the
 * queue dashboard): answered here so Express's own handler, which prints the stack trace unless
 * NODE_ENV=production, never runs.
 */
function lastErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { shown, unexpected } = errorAnswer(error);
    if (unexpected) logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    if (res.headersSent) res.destroy();
    else sendError(res, shown);
  };
}
