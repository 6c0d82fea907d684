import { ConfigError, loadConfig } from '../../src/shared/config';

describe('configuration from the environment', () => {
  test('defaults: port 3000, base URL from the port, embedded database, in-process limits, 100/minute', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, baseUrl: 'http://localhost:3000', databaseUrl: undefined, redisUrl: undefined, rateLimitPerMinute: 100, logLevel: 'info' });
  });

  test('webhook defaults: 10 s time-out, 1 minute base delay, 16 attempts, public HTTPS only, workers in the service', () => {
    expect(loadConfig({}).webhooks).toEqual({
      timeoutMs: 10_000, retryBaseDelayMs: 60_000, maxAttempts: 16, allowPrivateNetworks: false,
      workersInService: true, workerConcurrency: 10, pollIntervalMs: 1000,
    });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_WORKERS_IN_SERVICE: 'false' }).webhooks).toMatchObject({ allowPrivateNetworks: true, workersInService: false });
  });

  test('BASE_URL loses its trailing slash', () => {
    expect(loadConfig({ BASE_URL: 'https://pay.example.com/' }).baseUrl).toBe('https://pay.example.com');
  });

  test.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'Invalid configuration: RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000 (got "0")'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ REDIS_URL: 'nope' }, 'Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ BASE_URL: 'pay.example.com' }, 'Invalid configuration: BASE_URL must be an http(s) URL (got "pay.example.com")'],
    [{ WEB_CONCURRENCY: '2' }, 'Invalid configuration: WEB_CONCURRENCY above 1 needs DATABASE_URL (the embedded database serves one process)'],
    [{ WEBHOOK_TIMEOUT_MS: '50' }, 'Invalid configuration: WEBHOOK_TIMEOUT_MS must be an integer from 100 to 120000 (got "50")'],
    [{ WEBHOOK_RETRY_BASE_DELAY_MS: '1s' }, 'Invalid configuration: WEBHOOK_RETRY_BASE_DELAY_MS must be an integer from 1 to 3600000 (got "1s")'],
    [{ WEBHOOK_MAX_ATTEMPTS: '0' }, 'Invalid configuration: WEBHOOK_MAX_ATTEMPTS must be an integer from 1 to 100 (got "0")'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_NETWORKS must be 1 or 0 (got "yes")'],
    [{ WEBHOOK_WORKER_CONCURRENCY: '0' }, 'Invalid configuration: WEBHOOK_WORKER_CONCURRENCY must be an integer from 1 to 1000 (got "0")'],
    [{ WEBHOOK_POLL_INTERVAL_MS: '5' }, 'Invalid configuration: WEBHOOK_POLL_INTERVAL_MS must be an integer from 10 to 60000 (got "5")'],
  ])('%j is refused with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});
