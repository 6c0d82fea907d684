import type { MikroORM } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Redis } from '../shared/redis';

const CHECK_TIMEOUT_MS = 2000;

/** GET /healthz: 200 when the database (and Redis, when configured) answer within 2 s, else 503. */
export function healthCheck(orm: MikroORM, redis: Redis | undefined) {
  return async (_req: Request, res: Response) => {
    const [database, cache] = await Promise.all([
      probe(() => orm.em.getConnection().execute('select 1')),
      redis ? probe(() => redis.ping()) : Promise.resolve('not configured' as const),
    ]);
    const healthy = database === 'up' && cache !== 'down';
    res.setHeader('Cache-Control', 'no-store');
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'unavailable', database, redis: cache });
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
