import { randomBytes } from 'node:crypto';
import { createEmptyDatabase, dropDatabase } from './databases';
import { watchNode, type WatchedProcess } from './processes';
import { suiteFixture } from './suite-fixture';
import { TEST_REDIS_URL, testRun } from './test-env';
import { startTestService, type TestService } from './test-service';

export interface BuiltServiceSuite {
  /** An in-process service on the same database, to seed and read it (started with `inspectorEnv`). */
  readonly inspector: TestService;
  /** The process `start` ran last, if any. */
  readonly running: WatchedProcess | undefined;
  /** Starts the built service (`npm start`, dist/src/apps/main.js) on the suite's database; answers its base URL. */
  start(port: number, env?: Record<string, string>): Promise<string>;
}

/**
 * The set-up of the suites that kill or signal the real process (test/faults/): an empty database of their
 * own, an inspector service on it, and the built service as a process of its own, SIGKILLed at the end if
 * still running. Needs `npm run build` first. Call it at the top of the file; read it inside hooks and tests.
 */
export function useBuiltService(name: string, inspectorEnv: Record<string, string> = {}): BuiltServiceSuite {
  let running: WatchedProcess | undefined;
  const suite = suiteFixture(
    'useBuiltService',
    async () => {
      const database = await createEmptyDatabase(`payments_${name}`);
      return { database, inspector: await startTestService({ DATABASE_URL: database.url, ...inspectorEnv }) };
    },
    async ({ database, inspector }) => {
      await running?.stop('SIGKILL');
      await inspector.stop();
      await dropDatabase(database.name);
    },
  );
  return {
    get inspector() {
      return suite.inspector;
    },
    get running() {
      return running;
    },
    async start(port, env = {}) {
      running = watchNode('main.js', [], {
        PORT: String(port), DATABASE_URL: suite.database.url, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'info',
        REDIS_KEY_PREFIX: `${testRun().redisPrefix}${name}-${randomBytes(3).toString('hex')}:`,
        CHECKOUT_SUBMISSIONS_PER_CLIENT: '100000', RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      });
      await running.waitFor(/payment service listening/);
      return `http://127.0.0.1:${port}`;
    },
  };
}
