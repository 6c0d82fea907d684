import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Redis } from '../shared/redis';

const CHECK_TIMEOUT_MS = 2000;

/**
 * Liveness and readiness. `/livez`: the process answers (restart it if not). `/readyz` (and `/healthz`,
 * its older name): send it traffic: PostgreSQL (and Redis, when configured) answer within 2 s and the
 * process is not draining for shutdown; 503 otherwise.
 */
export interface Health {
  live(req: Request, res: Response): void;
  ready(req: Request, res: Response): Promise<void>;
  /** Called when shutdown starts: readiness turns 503 so load balancers stop sending new requests. */
  drain(): void;
}

export function health(orm: MikroORM, redis: Redis | undefined): Health {
  let draining = false;
  return {
    live(_req, res) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).json({ status: 'ok' });
    },
    async ready(_req, res) {
      const [database, cache] = await Promise.all([
        probe(() => orm.em.getConnection().execute('select 1')),
        redis ? probe(() => redis.ping()) : Promise.resolve('not configured' as const),
      ]);
      const healthy = !draining && database === 'up' && cache !== 'down';
      res.setHeader('Cache-Control', 'no-store');
      res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : draining ? 'draining' : 'unavailable', database, redis: cache });
    },
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
