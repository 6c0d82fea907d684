import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import { pingDatabase } from '../db/database';
import type { Metrics } from '../observability/metrics';
import type { Redis } from '../../shared/redis';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Liveness and readiness. `/livez`: the process answers (restart it if not). `/readyz` (and `/healthz`,
 * its older name): send it traffic: PostgreSQL (and Redis, when configured) answer within 2 s, the webhook and
 * mail workers of this process have a recent heartbeat, and the process is not draining for shutdown; 503
 * otherwise. Each check also sets `readiness_check_up{check}`, so Prometheus sees what the load balancer sees.
 */
export interface Health {
  live(req: Request, res: Response): void;
  ready(req: Request, res: Response): Promise<void>;
  /** The checks alone, for a scrape of /metrics (which sets the gauges). */
  check(): Promise<Readiness>;
  /** Called when shutdown starts: readiness turns 503 so load balancers stop sending new requests. */
  drain(): void;
}

type Check = 'up' | 'down';

export interface Readiness {
  database: Check;
  redis: Check | 'not configured';
  /** The relays and queue workers of this process (webhooks, mail), by name; absent when it runs none. */
  workers?: Record<string, Check>;
}

export interface HealthOptions {
  /** Sets `readiness_check_up` at every check. */
  metrics?: Metrics;
  /** Heartbeats of this process's workers, by name: true (recent), false (stale or stopped), null (none run here). */
  workers?: Record<string, () => boolean | null>;
}

export function health(orm: MikroORM, redis: Redis | undefined, options: HealthOptions = {}): Health {
  let draining = false;
  const check = async (): Promise<Readiness> => {
    const [database, cache] = await Promise.all([
      probe(() => pingDatabase(orm)),
      redis ? probe(() => redis.ping()) : Promise.resolve('not configured' as const),
    ]);
    const workers: Record<string, Check> = {};
    for (const [name, alive] of Object.entries(options.workers ?? {})) {
      const beat = alive();
      if (beat !== null) workers[name] = beat ? 'up' : 'down';
    }
    const gauge = options.metrics?.readiness;
    gauge?.set({ check: 'postgresql' }, database === 'up' ? 1 : 0);
    if (cache !== 'not configured') gauge?.set({ check: 'redis' }, cache === 'up' ? 1 : 0);
    for (const [name, state] of Object.entries(workers)) gauge?.set({ check: `${name}_workers` }, state === 'up' ? 1 : 0);
    return Object.keys(workers).length > 0 ? { database, redis: cache, workers } : { database, redis: cache };
  };
  return {
    live(_req, res) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({ status: 'ok' });
    },
    async ready(_req, res) {
      const readiness = await check();
      const healthy = !draining && readiness.database === 'up' && readiness.redis !== 'down' && !Object.values(readiness.workers ?? {}).includes('down');
      res.setHeader('Cache-Control', 'no-store');
      res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : draining ? 'draining' : 'unavailable', ...readiness });
    },
    check,
    drain() {
      draining = true;
    },
  };
}

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
