import { ConfigError, loadConfig, publicBaseUrl } from '../../src/shared/config';
import { parseRedisTarget } from '../../src/shared/redis-url';
import { createAcquirer } from '../../src/platform/processor/processors';
import { SimulatedAcquirer } from '../../src/platform/processor/simulated-acquirer';

describe('configuration from the environment', () => {
  test('defaults: port 3000, base URL from the port bound, embedded database, in-process limits, 100/minute', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, baseUrl: undefined, databaseUrl: undefined, databaseCreate: false, redisUrl: undefined, rateLimitPerMinute: 100, logLevel: 'info', logFormat: 'auto' });
    expect(publicBaseUrl(config, 3000)).toBe('http://localhost:3000');
  });

  test('PORT=0 without BASE_URL: checkout links use the port actually bound; BASE_URL, when set, wins', () => {
    expect(publicBaseUrl(loadConfig({ PORT: '0' }), 41234)).toBe('http://localhost:41234');
    expect(publicBaseUrl(loadConfig({ PORT: '0', BASE_URL: 'https://pay.example.com/' }), 41234)).toBe('https://pay.example.com');
  });

  test('CARD_PROCESSOR chooses the adapter: simulated is the test-card simulator, an unknown name is refused', () => {
    expect(createAcquirer(loadConfig({ CARD_PROCESSOR: 'simulated' })).processor).toBeInstanceOf(SimulatedAcquirer);
    expect(() => loadConfig({ CARD_PROCESSOR: 'stripe' })).toThrow('Invalid configuration: CARD_PROCESSOR must be one of simulated, adyen (got "stripe")');
    expect(loadConfig({}).adyen).toBeNull();
  });

  const ADYEN = {
    CARD_PROCESSOR: 'adyen',
    ADYEN_API_KEY: 'AQE_key',
    ADYEN_MERCHANT_ACCOUNT: 'ShopECOM',
    ADYEN_HMAC_KEY: '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056',
    ADYEN_NOTIFICATION_USERNAME: 'adyen',
    ADYEN_NOTIFICATION_PASSWORD: 'secret',
  };

  test('CARD_PROCESSOR=adyen: the credentials are required, each missing one refuses the start in one line', () => {
    expect(loadConfig(ADYEN).adyen).toEqual({
      apiKey: 'AQE_key', merchantAccount: 'ShopECOM', environment: 'test', liveUrlPrefix: undefined, hmacKey: ADYEN.ADYEN_HMAC_KEY,
      notificationUsername: 'adyen', notificationPassword: 'secret', checkoutEndpoint: 'https://checkout-test.adyen.com/v71', timeoutMs: 30_000,
    });
    for (const name of ['ADYEN_API_KEY', 'ADYEN_MERCHANT_ACCOUNT', 'ADYEN_HMAC_KEY', 'ADYEN_NOTIFICATION_USERNAME', 'ADYEN_NOTIFICATION_PASSWORD']) {
      expect(() => loadConfig({ ...ADYEN, [name]: '' })).toThrow(new ConfigError(`Invalid configuration: ${name} is required with CARD_PROCESSOR=adyen`));
    }
    expect(() => loadConfig({ ...ADYEN, ADYEN_HMAC_KEY: 'not-hex' })).toThrow('ADYEN_HMAC_KEY must be the hex key from the Customer Area');
  });

  test('ADYEN_ENVIRONMENT=live needs the live URL prefix and goes to Adyen\'s live v71 address; ADYEN_CHECKOUT_ENDPOINT overrides', () => {
    expect(() => loadConfig({ ...ADYEN, ADYEN_ENVIRONMENT: 'live' })).toThrow('Invalid configuration: ADYEN_LIVE_URL_PREFIX is required with ADYEN_ENVIRONMENT=live');
    expect(loadConfig({ ...ADYEN, ADYEN_ENVIRONMENT: 'live', ADYEN_LIVE_URL_PREFIX: '1797a841fbb37ca7-AdyenDemo' }).adyen!.checkoutEndpoint).toBe(
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v71',
    );
    expect(loadConfig({ ...ADYEN, ADYEN_CHECKOUT_ENDPOINT: 'http://127.0.0.1:9999/v71/' }).adyen!.checkoutEndpoint).toBe('http://127.0.0.1:9999/v71');
    expect(() => loadConfig({ ...ADYEN, ADYEN_ENVIRONMENT: 'prod' })).toThrow('ADYEN_ENVIRONMENT must be one of test, live');
  });

  test('webhook defaults: 10 s time-out, 1 minute base delay, 16 attempts, public HTTPS only, workers in the service', () => {
    expect(loadConfig({}).webhooks).toEqual({
      timeoutMs: 10_000, retryBaseDelayMs: 60_000, maxAttempts: 16, allowPrivateNetworks: false,
      workersInService: true, workerConcurrency: 50, pollIntervalMs: 1000, streamPollMs: 1000, testDeliveriesPerMinute: 5,
    });
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_WORKERS_IN_SERVICE: 'false' }).webhooks).toMatchObject({ allowPrivateNetworks: true, workersInService: false });
  });

  test('TRUST_PROXY: off by default; a hop count; addresses, CIDR ranges and Express\'s names', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1 , fd00::/8,uniquelocal' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1', 'fd00::/8', 'uniquelocal']);
  });

  test('GRAPHQL_STACK_TRACES: off by default; on only with a localhost or loopback BASE_URL', () => {
    expect(loadConfig({}).graphqlStackTraces).toBe(false);
    expect(loadConfig({ GRAPHQL_STACK_TRACES: '1' }).graphqlStackTraces).toBe(true);
    expect(loadConfig({ GRAPHQL_STACK_TRACES: '1', BASE_URL: 'http://127.0.0.1:4000' }).graphqlStackTraces).toBe(true);
    expect(loadConfig({ GRAPHQL_STACK_TRACES: '1', BASE_URL: 'http://[::1]:4000' }).graphqlStackTraces).toBe(true);
  });

  test('abuse limits: 5 s statement time-out, 20 aliases, 20,000 cost a minute, one GraphQL request per key at a time', () => {
    const config = loadConfig({});
    expect(config.databaseStatementTimeoutMs).toBe(5000);
    expect(config.graphqlLimits).toEqual({ maxDepth: 10, maxCost: 5000, maxAliases: 20, costPerMinute: 20_000, requestsPerKey: 1 });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseStatementTimeoutMs).toBe(0);
  });

  test('admin tokens are accepted for 90 days unless ADMIN_TOKEN_TTL_DAYS says otherwise', () => {
    expect(loadConfig({}).adminTokenTtlDays).toBe(90);
    expect(loadConfig({ ADMIN_TOKEN_TTL_DAYS: '30' }).adminTokenTtlDays).toBe(30);
  });

  test('REDIS_URL names one Redis or a cluster by some of its nodes', () => {
    expect(parseRedisTarget('redis://10.0.0.1:6379/2')).toEqual({ kind: 'single', url: 'redis://10.0.0.1:6379/2' });
    expect(parseRedisTarget('redis-cluster://10.0.0.1:7000,redis-b.internal:7001,[::1]:7002')).toEqual({
      kind: 'cluster',
      nodes: [{ host: '10.0.0.1', port: 7000 }, { host: 'redis-b.internal', port: 7001 }, { host: '::1', port: 7002 }],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(parseRedisTarget('rediss-cluster://app:s%40cret@10.0.0.1:7000')).toMatchObject({ username: 'app', password: 's@cret', tls: true });
    expect(parseRedisTarget('redis-cluster://10.0.0.1:70000')).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis-cluster://10.0.0.1:7000,10.0.0.2:7000' }).redisUrl).toBe('redis-cluster://10.0.0.1:7000,10.0.0.2:7000');
  });

  test('BASE_URL loses its trailing slash', () => {
    expect(loadConfig({ BASE_URL: 'https://pay.example.com/' }).baseUrl).toBe('https://pay.example.com');
  });

  test.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be an integer from 0 to 65535 (got "abc")'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'Invalid configuration: RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000 (got "0")'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ REDIS_URL: 'nope' }, 'Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL, or redis-cluster://host1:port1,host2:port2 (rediss-cluster:// with TLS)'],
    [{ REDIS_URL: 'redis-cluster://10.0.0.1:7000,10.0.0.2' }, 'Invalid configuration: REDIS_URL must be a redis:// or rediss:// URL, or redis-cluster://host1:port1,host2:port2 (rediss-cluster:// with TLS)'],
    [{ DATABASE_POOLER: 'pgpool' }, 'Invalid configuration: DATABASE_POOLER must be one of none, pgbouncer-transaction (got "pgpool")'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ BASE_URL: 'pay.example.com' }, 'Invalid configuration: BASE_URL must be an http(s) URL (got "pay.example.com")'],
    [{ WEB_CONCURRENCY: '2' }, 'Invalid configuration: WEB_CONCURRENCY above 1 needs DATABASE_URL (the embedded database serves one process)'],
    [{ WEBHOOK_TIMEOUT_MS: '50' }, 'Invalid configuration: WEBHOOK_TIMEOUT_MS must be an integer from 100 to 120000 (got "50")'],
    [{ WEBHOOK_RETRY_BASE_DELAY_MS: '1s' }, 'Invalid configuration: WEBHOOK_RETRY_BASE_DELAY_MS must be an integer from 1 to 3600000 (got "1s")'],
    [{ WEBHOOK_MAX_ATTEMPTS: '0' }, 'Invalid configuration: WEBHOOK_MAX_ATTEMPTS must be an integer from 1 to 100 (got "0")'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_NETWORKS must be 1 or 0 (got "yes")'],
    [{ WEBHOOK_WORKER_CONCURRENCY: '0' }, 'Invalid configuration: WEBHOOK_WORKER_CONCURRENCY must be an integer from 1 to 1000 (got "0")'],
    [{ LOG_FORMAT: 'fancy' }, 'Invalid configuration: LOG_FORMAT must be one of auto, json, pretty (got "fancy")'],
    [{ DATABASE_CREATE: 'yes' }, 'Invalid configuration: DATABASE_CREATE must be 1 or 0 (got "yes")'],
    [{ WEBHOOK_POLL_INTERVAL_MS: '5' }, 'Invalid configuration: WEBHOOK_POLL_INTERVAL_MS must be an integer from 10 to 60000 (got "5")'],
    [{ EVENT_STREAM_POLL_MS: '50' }, 'Invalid configuration: EVENT_STREAM_POLL_MS must be an integer from 100 to 60000 (got "50")'],
    [{ TRUST_PROXY: 'true' }, 'Invalid configuration: TRUST_PROXY true would let any client choose its address; give the number of proxies in front (e.g. 1) or their addresses'],
    [{ TRUST_PROXY: '11' }, 'Invalid configuration: TRUST_PROXY must be an integer from 1 to 10 (got "11")'],
    [{ TRUST_PROXY: '10.0.0.1, 10.0.0.300' }, 'Invalid configuration: TRUST_PROXY must be a hop count or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal (got "10.0.0.300")'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'Invalid configuration: TRUST_PROXY must be a hop count or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal (got "10.0.0.0/33")'],
    [{ TRUST_PROXY: 'loopback,' }, 'Invalid configuration: TRUST_PROXY must be a hop count or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal (got "")'],
    [{ TRUST_PROXY: 'lb.internal' }, 'Invalid configuration: TRUST_PROXY must be a hop count or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal (got "lb.internal")'],
    [{ GRAPHQL_STACK_TRACES: '1', BASE_URL: 'https://pay.example.com' }, 'Invalid configuration: GRAPHQL_STACK_TRACES is for local debugging only (BASE_URL https://pay.example.com is not localhost)'],
    [{ GRAPHQL_STACK_TRACES: 'yes' }, 'Invalid configuration: GRAPHQL_STACK_TRACES must be 1 or 0 (got "yes")'],
    [{ WEBHOOK_TEST_DELIVERIES_PER_MINUTE: '0' }, 'Invalid configuration: WEBHOOK_TEST_DELIVERIES_PER_MINUTE must be an integer from 1 to 1000 (got "0")'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '5s' }, 'Invalid configuration: DATABASE_STATEMENT_TIMEOUT_MS must be an integer from 0 to 3600000 (got "5s")'],
    [{ GRAPHQL_REQUESTS_PER_KEY: '0' }, 'Invalid configuration: GRAPHQL_REQUESTS_PER_KEY must be an integer from 1 to 1000 (got "0")'],
    [{ ADMIN_TOKEN_TTL_DAYS: '0' }, 'Invalid configuration: ADMIN_TOKEN_TTL_DAYS must be an integer from 1 to 3650 (got "0")'],
  ])('%j is refused with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });
});
