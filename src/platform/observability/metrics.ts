import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { digestsEqual, sha256Hex } from '../../shared/secrets';

/**
 * The Prometheus series operators watch (docs/operations.md, "What to watch"). One registry per service instance,
 * so several instances in one process (the tests) do not share counters.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Histogram<'method' | 'route' | 'status'>;
  paymentOutcomes: Counter<'outcome'>;
  webhookDeliveries: Counter<'outcome'>;
  webhookLag: Histogram<string>;
  queueDepth: Gauge<'queue'>;
  reconciliations: Counter<'kind' | 'outcome'>;
  needsAttention: Gauge<'kind'>;
  acquirerNotifications: Counter<'event' | 'outcome'>;
  mails: Counter<'kind' | 'outcome'>;
  mailsNeedingAttention: Gauge<'status'>;
  webhookOldestUndelivered: Gauge<string>;
  refundsNearReviewDeadline: Gauge<string>;
  ledgerViolations: Gauge<'invariant'>;
  readiness: Gauge<'check'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Histogram({
      name: 'http_request_duration_seconds', help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
    }),
    paymentOutcomes: new Counter({ name: 'payments_total', help: 'Card payments by outcome: completed, failed (by reason), challenged', labelNames: ['outcome'], registers: [registry] }),
    webhookDeliveries: new Counter({ name: 'webhook_deliveries_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers: [registry] }),
    webhookLag: new Histogram({
      name: 'webhook_delivery_lag_seconds', help: 'Time from event creation to successful delivery',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600, 3600, 86400], registers: [registry],
    }),
    queueDepth: new Gauge({ name: 'queue_depth', help: 'Work waiting per queue (webhook deliveries due, refunds approved)', labelNames: ['queue'], registers: [registry] }),
    reconciliations: new Counter({
      name: 'reconciliations_total', help: 'Acquirer look-ups of payments and refunds left processing, by what they settled (unknown: asked again later)',
      labelNames: ['kind', 'outcome'], registers: [registry],
    }),
    needsAttention: new Gauge({
      name: 'reconciliation_needs_attention', help: 'Payments and refunds whose acquirer outcome stayed unknown past RECONCILE_GIVE_UP_MS: an admin must settle them',
      labelNames: ['kind'], registers: [registry],
    }),
    acquirerNotifications: new Counter({
      name: 'acquirer_notifications_total',
      help: "The acquirer's notification items by event code and outcome: accepted, duplicate, rejected (malformed), applied, flagged (did not match what it names; nothing booked), retry",
      labelNames: ['event', 'outcome'], registers: [registry],
    }),
    mails: new Counter({
      name: 'mails_total',
      help: 'Mail outbox attempts by kind (receipt, refund-notice, a seller notification) and outcome: sent, kept (no SMTP_URL), retry_scheduled, unknown (handed over, unanswered), failed, suppressed (a customer mail past its mailbox daily cap)',
      labelNames: ['kind', 'outcome'], registers: [registry],
    }),
    mailsNeedingAttention: new Gauge({
      name: 'mails_needing_attention', help: 'Mails of the outbox an admin should look at: failed (refused, or given up) and unknown (maybe delivered); the mails query lists them',
      labelNames: ['status'], registers: [registry],
    }),
    webhookOldestUndelivered: new Gauge({
      name: 'webhook_oldest_undelivered_seconds',
      help: 'How long the oldest due webhook delivery has waited for a worker, since it fell due (its event was written, or its retry time came); 0 when none waits',
      registers: [registry],
    }),
    refundsNearReviewDeadline: new Gauge({
      name: 'refund_requests_near_review_deadline', help: 'Refund requests awaiting an admin decision for 20 hours or more (the promise is a decision within 24 hours)',
      registers: [registry],
    }),
    ledgerViolations: new Gauge({
      name: 'ledger_invariant_violations', help: "Rows breaking each money invariant at check-ledger's last run (LEDGER_CHECK_INTERVAL_MS); absent before the first",
      labelNames: ['invariant'], registers: [registry],
    }),
    readiness: new Gauge({
      name: 'readiness_check_up', help: 'The checks of /readyz at the last probe or scrape: postgresql, redis, webhook_workers and mail_workers (the relays and queue workers of this process); 1 up, 0 down',
      labelNames: ['check'], registers: [registry],
    }),
  };
}

/** Observes every request under its route template (`/api/v1/payments/:id`), never the raw path with ids. */
export function requestMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const stop = metrics.httpRequests.startTimer();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : req.baseUrl || 'unmatched';
      stop({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/**
 * GET /metrics: with METRICS_TOKEN set, only for `Authorization: Bearer <token>`; without it, only for
 * clients on this machine (loopback), so business figures are never public. Both the peer and the client
 * it speaks for (TRUST_PROXY) must be loopback: a proxy on this machine forwards the public.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined, beforeScrape: () => Promise<void>) {
  return async (req: Request, res: Response) => {
    const allowed = token ? digestsEqual(sha256Hex(req.get('authorization') ?? ''), sha256Hex(`Bearer ${token}`)) : isLoopback(req.socket.remoteAddress) && isLoopback(req.ip);
    if (!allowed) {
      res.status(403).json({ success: false, error: 'Access denied' });
      return;
    }
    await beforeScrape();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await metrics.registry.metrics());
  };
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}
