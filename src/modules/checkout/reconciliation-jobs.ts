import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../../platform/observability/metrics';
import { EXPIRED, expireDuePayments, flagPaymentNeedingAttention, leaseStuckPayments } from '../payments';
import { flagRefundNeedingAttention, leaseStuckRefunds, settleLookedUpRefund } from '../refunds';
import { refundSettlingDeps } from './acquirer-settling';
import type { ReconciliationConfig } from '../../shared/config';
import { settleLookedUpPayment, type CheckoutDeps } from './checkout.service';
import type { Leased, LeaseTerms } from '../../shared/reconcile-lease';

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
      for (const payment of await leaseStuckPayments(em, leaseTerms(settings))) if (await reconcilePayment(options, payment)) settled++;
      for (const refund of await leaseStuckRefunds(em, leaseTerms(settings))) if (await reconcileRefund(options, refund)) settled++;
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

/** A lease lasts one RECONCILE_INTERVAL_MS; a row is due once left processing longer than RECONCILE_AFTER_MS. */
function leaseTerms(settings: ReconciliationConfig): LeaseTerms {
  return { leaseSeconds: settings.intervalMs / 1000, stuckSeconds: settings.afterMs / 1000, batch: BATCH };
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
    const outcome = await settleLookedUpRefund(orm.em.fork(), refundSettlingDeps(checkout), id, found);
    metrics.reconciliations.inc({ kind: 'refund', outcome });
    logger.info({ refundId: id, found: found.kind, outcome }, 'refund reconciled with the acquirer');
    if (outcome === 'requeued') options.enqueueRefund(id);
    return outcome !== 'not-claimed';
  } catch (error) {
    await stillUnknown(options, 'refunds', id, since, error as Error);
    return false;
  }
}

/** The owner's flag for admins, per table: set once, on a row still unsettled. */
const FLAG_NEEDING_ATTENTION = { payments: flagPaymentNeedingAttention, refunds: flagRefundNeedingAttention };

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
  if (await FLAG_NEEDING_ATTENTION[table](orm.em.fork(), id)) logger.error({ [`${kind}Id`]: id, err: error.message }, `${kind} outcome unknown past RECONCILE_GIVE_UP_MS: flagged for admins`);
}
