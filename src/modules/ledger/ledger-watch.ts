import type { MikroORM } from '@mikro-orm/postgresql';
import type { Metrics } from '../../platform/observability/metrics';
import type { Logger } from '../../shared/logger';
import { checkLedger, LEDGER_INVARIANTS } from './ledger-invariants';

export interface LedgerWatch {
  /** Called on each scrape of /metrics: starts a check in the background when the last one is older than the interval. */
  onScrape(): void;
  /** Waits for a check in flight (before the database closes). */
  stop(): Promise<void>;
}

/**
 * `ledger_invariant_violations{invariant}`: the rows breaking each of check-ledger's invariants
 * (ledger-invariants.ts), for the alert of deploy/prometheus/alerts.yml. The check reads the whole ledger, so it
 * never runs on a scrape's path: a scrape starts one in the background when the last started LEDGER_CHECK_INTERVAL_MS
 * ago or more (0: never), and reads the last result. Before the first result the series are absent.
 */
export function watchLedger(orm: MikroORM, metrics: Metrics, intervalMs: number, logger: Logger): LedgerWatch {
  let lastStartedAt: number | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const run = async () => {
    try {
      const check = await checkLedger(orm.em.fork());
      if (stopped) return;
      for (const invariant of LEDGER_INVARIANTS) {
        metrics.ledgerViolations.set({ invariant: invariant.name }, check.violations.filter((v) => v.invariant === invariant.name).length);
      }
      if (check.violations.length > 0) {
        logger.error({ violations: check.violations.slice(0, 20), count: check.violations.length }, 'ledger invariants broken (npm run cli -- check-ledger lists them all)');
      }
    } catch (error) {
      if (!stopped) logger.warn({ err: (error as Error).message }, 'ledger check for /metrics failed; trying again at the next interval');
    } finally {
      running = null;
    }
  };

  return {
    onScrape() {
      if (intervalMs === 0 || running || stopped) return;
      if (lastStartedAt !== null && Date.now() - lastStartedAt < intervalMs) return;
      lastStartedAt = Date.now();
      running = run();
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
