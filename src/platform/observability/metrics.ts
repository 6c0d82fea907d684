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
  // Every series registers in this instance's registry only.
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers: [registry] });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const histogram = <L extends string>(name: string, help: string, buckets: number[], labelNames: readonly L[] = []) =>
    new Histogram<L>({ name, help, buckets, labelNames, registers: [registry] });
  return {
    registry,
    httpRequests: histogram('http_request_duration_seconds', 'HTTP requests by route template and status', [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], ['method', 'route', 'status']),
    paymentOutcomes: counter('payments_total', 'Card payments by outcome: completed, failed (by reason), challenged', ['outcome']),
    webhookDeliveries: counter('webhook_deliveries_total', 'Webhook delivery attempts by outcome', ['outcome']),
    webhookLag: histogram('webhook_delivery_lag_seconds', 'Time from event creation to successful delivery', [0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600, 3600, 86400]),
    queueDepth: gauge('queue_depth', 'Work waiting per queue (webhook deliveries due, refunds approved)', ['queue']),
    reconciliations: counter('reconciliations_total', 'Acquirer look-ups of payments and refunds left processing, by what they settled (unknown: asked again later)', ['kind', 'outcome']),
    needsAttention: gauge('reconciliation_needs_attention', 'Payments and refunds whose acquirer outcome stayed unknown past RECONCILE_GIVE_UP_MS: an admin must settle them', ['kind']),
    acquirerNotifications: counter(
      'acquirer_notifications_total',
      "The acquirer's notification items by event code and outcome: accepted, duplicate, rejected (malformed), applied, flagged (did not match what it names; nothing booked), retry",
      ['event', 'outcome'],
    ),
    mails: counter(
      'mails_total',
      'Mail outbox attempts by kind (receipt, refund-notice, a seller notification) and outcome: sent, kept (no SMTP_URL), retry_scheduled, unknown (handed over, unanswered), failed, suppressed (a customer mail past its mailbox daily cap)',
      ['kind', 'outcome'],
    ),
    mailsNeedingAttention: gauge('mails_needing_attention', 'Mails of the outbox an admin should look at: failed (refused, or given up) and unknown (maybe delivered); the mails query lists them', ['status']),
    webhookOldestUndelivered: gauge(
      'webhook_oldest_undelivered_seconds',
      'How long the oldest due webhook delivery has waited for a worker, since it fell due (its event was written, or its retry time came); 0 when none waits',
    ),
    refundsNearReviewDeadline: gauge('refund_requests_near_review_deadline', 'Refund requests awaiting an admin decision for 20 hours or more (the promise is a decision within 24 hours)'),
    ledgerViolations: gauge('ledger_invariant_violations', "Rows breaking each money invariant at check-ledger's last run (LEDGER_CHECK_INTERVAL_MS); absent before the first", ['invariant']),
    readiness: gauge(
      'readiness_check_up',
      'The checks of /readyz at the last probe or scrape: postgresql, redis, webhook_workers and mail_workers (the relays and queue workers of this process); 1 up, 0 down',
      ['check'],
    ),
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
