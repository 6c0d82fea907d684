import { ConfigError, loadConfig } from '../../src/config';

describe('configuration from the environment', () => {
  test('defaults: port 3000, base URL from the port, embedded database, in-process limits, 100/minute', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, baseUrl: 'http://localhost:3000', databaseUrl: undefined, redisUrl: undefined, rateLimitPerMinute: 100, logLevel: 'info' });
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
  ])('%j is refused with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});
