import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../../platform/observability/metrics';
import { CheckoutStage, PaymentStatus } from '../payments/payment-status';
import { EXPIRED, expireDuePayments } from '../payments/payment-expiry';
import { settleLookedUpRefund } from '../refunds/refund.service';
import { RefundStatus } from '../refunds/refund.entity';
import type { ReconciliationConfig } from '../../shared/config';
import { settleLookedUpPayment, type CheckoutDeps } from './checkout.service';

/** Reconciliation of unknown acquirer outcomes (docs/checkout.md, "Reconciliation"). */
export interface ReconciliationJobs {
  /** One pass: asks the acquirer about every due payment and refund this instance could lease, and expires unpaid payments. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export interface ReconciliationOptions {
  orm: MikroORM;
  checkout: CheckoutDeps;
  metrics: Metrics;
  logger: Logger;
  settings: ReconciliationConfig;
  /** Hands a refund the acquirer never received back to the refund jobs. */
  enqueueRefund(refundId: string): void;
}

/**
 * How many rows one instance leases per pass; the rest wait for the next pass or another instance. Rows never
 * asked about come first, then the oldest: rows the acquirer keeps answering "unknown" about (an outage) are
 * asked again every pass, and must not keep a newly stuck payment out of the batch.
 */
const BATCH = 50;

interface Leased {
  id: string;
  since: Date;
}

/**
 * Every instance sweeps every RECONCILE_INTERVAL_MS. Rows are leased, not locked while the acquirer is
 * asked: one UPDATE … FOR UPDATE SKIP LOCKED sets `reconcile_leased_until` to now + the interval, so two
 * instances never ask about the same row in one interval, and a dead instance's lease simply runs out.
 * The lease only saves look-ups: exactly-once comes from the settling moves (conditional UPDATEs from
 * `processing`), the same ones a live answer takes.
 */
export function startReconciliationJobs(options: ReconciliationOptions): ReconciliationJobs {
  const { orm, logger, settings } = options;
  let sweeping: Promise<number> | null = null;
  const sweep = () => {
    sweeping ??= (async () => {
      const em = orm.em.fork();
      let settled = 0;
      for (const payment of await leasePayments(em, settings)) if (await reconcilePayment(options, payment)) settled++;
      for (const refund of await leaseRefunds(em, settings)) if (await reconcileRefund(options, refund)) settled++;
      return settled + (await expireUnpaid(options));
    })().finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = setInterval(() => sweep().catch((err: Error) => logger.warn({ err: err.message }, 'reconciliation sweep failed')), settings.intervalMs);
  timer.unref();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await sweeping?.catch(() => undefined);
    },
  };
}

/** Expiry rides on the same sweep (docs/checkout.md, "Expiry"): unpaid payments past PAYMENT_EXPIRES_AFTER_MS fail `expired`. */
async function expireUnpaid({ orm, checkout, metrics, logger }: ReconciliationOptions): Promise<number> {
  const expired = await expireDuePayments(orm.em.fork(), checkout);
  for (const paymentId of expired) {
    logger.info({ paymentId }, 'payment expired');
    metrics.paymentOutcomes.inc({ outcome: `failed_${EXPIRED}` });
  }
  return expired.length;
}

async function leasePayments(em: EntityManager, settings: ReconciliationConfig): Promise<Leased[]> {
  const rows = await em.execute<{ id: string; processing_since: Date }[]>(
    `update "payments" set "reconcile_leased_until" = now() + make_interval(secs => ?)
      where "id" in (select "id" from "payments"
        where "status" = ? and "checkout_stage" = ? and "processing_since" < now() - make_interval(secs => ?)
          and ("reconcile_leased_until" is null or "reconcile_leased_until" <= now())
        order by "reconcile_leased_until" nulls first, "processing_since" limit ? for update skip locked)
      returning "id", "processing_since"`,
    [settings.intervalMs / 1000, PaymentStatus.PENDING, CheckoutStage.PROCESSING, settings.afterMs / 1000, BATCH],
  );
  return rows.map((r) => ({ id: r.id, since: new Date(r.processing_since) }));
}

/** A refund counts from its approval: a retry by the refund jobs renews its claim, not its age. */
async function leaseRefunds(em: EntityManager, settings: ReconciliationConfig): Promise<Leased[]> {
  const rows = await em.execute<{ id: string; reviewed_at: Date }[]>(
    `update "refunds" set "reconcile_leased_until" = now() + make_interval(secs => ?)
      where "id" in (select "id" from "refunds"
        where "status" = ? and "claimed_at" < now() - make_interval(secs => ?)
          and ("reconcile_leased_until" is null or "reconcile_leased_until" <= now())
        order by "reconcile_leased_until" nulls first, "claimed_at" limit ? for update skip locked)
      returning "id", "reviewed_at"`,
    [settings.intervalMs / 1000, RefundStatus.PROCESSING, settings.afterMs / 1000, BATCH],
  );
  return rows.map((r) => ({ id: r.id, since: new Date(r.reviewed_at) }));
}

async function reconcilePayment(options: ReconciliationOptions, { id, since }: Leased): Promise<boolean> {
  const { checkout, orm, metrics, logger } = options;
  try {
    const found = await checkout.processor.lookupAuthorization(id);
    const outcome = await settleLookedUpPayment(checkout, orm.em.fork(), id, found);
    metrics.reconciliations.inc({ kind: 'payment', outcome });
    logger.info({ paymentId: id, found: found.kind, outcome }, 'payment reconciled with the acquirer');
    return outcome !== 'lost';
  } catch (error) {
    await stillUnknown(options, 'payments', id, since, error as Error);
    return false;
  }
}

async function reconcileRefund(options: ReconciliationOptions, { id, since }: Leased): Promise<boolean> {
  const { checkout, orm, metrics, logger } = options;
  try {
    const found = await checkout.processor.lookupRefund(id);
    const outcome = await settleLookedUpRefund(orm.em.fork(), { processor: checkout.processor, logger, processingTimeoutMs: 0, baseUrl: checkout.baseUrl }, id, found);
    metrics.reconciliations.inc({ kind: 'refund', outcome });
    logger.info({ refundId: id, found: found.kind, outcome }, 'refund reconciled with the acquirer');
    if (outcome === 'requeued') options.enqueueRefund(id);
    return outcome !== 'not-claimed';
  } catch (error) {
    await stillUnknown(options, 'refunds', id, since, error as Error);
    return false;
  }
}

/**
 * The acquirer could not say (or settling failed): asked again next interval. Past RECONCILE_GIVE_UP_MS
 * it is flagged once for admins (`needsAttention` in the console, `reconciliation_needs_attention`).
 */
async function stillUnknown(options: ReconciliationOptions, table: 'payments' | 'refunds', id: string, since: Date, error: Error): Promise<void> {
  const { orm, metrics, logger, settings } = options;
  const kind = table === 'payments' ? 'payment' : 'refund';
  metrics.reconciliations.inc({ kind, outcome: 'unknown' });
  if (Date.now() - since.getTime() < settings.giveUpMs) {
    logger.warn({ [`${kind}Id`]: id, err: error.message }, `${kind} outcome still unknown: asking the acquirer again later`);
    return;
  }
  const flagged = await orm.em.fork().execute<{ id: string }[]>(
    `update "${table}" set "needs_attention_at" = now() where "id" = ? and "status" = ? and "needs_attention_at" is null returning "id"`,
    [id, table === 'payments' ? PaymentStatus.PENDING : RefundStatus.PROCESSING],
  );
  if (flagged.length) logger.error({ [`${kind}Id`]: id, err: error.message }, `${kind} outcome unknown past RECONCILE_GIVE_UP_MS: flagged for admins`);
}
