import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createEmptyDatabase, dropDatabase } from '../../support/databases';
import { checkoutClient } from '../../support/checkout-client';
import { ancestry, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver';
import { freePort, runNode, watchNode, type WatchedProcess } from '../../support/processes';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { TEST_REDIS_URL, testRun } from '../../support/test-env';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS } from '../../support/webhook-support';

/**
 * Tracing on (docs/operations.md, "Tracing"): the built service (dist/src/apps/main.js, `npm run build` first) and a
 * built worker (dist/src/apps/worker.js) export their spans with OTLP/HTTP JSON to a collector that is a plain HTTP
 * server in this process. The service writes the outbox; only the worker delivers (WEBHOOK_WORKERS_IN_SERVICE=0),
 * so the webhook's trace context must travel through PostgreSQL and the bull job to reach the other process.
 */
jest.setTimeout(90_000);

const PG = '@opentelemetry/instrumentation-pg';
const HTTP = '@opentelemetry/instrumentation-http';
const SERVER = 2;
const CLIENT = 3;

let collector: OtlpReceiver;
let webhooks: Receiver;
let database: { name: string; url: string };
let service: WatchedProcess;
let worker: WatchedProcess;
let url: string;
let apiKey: string;

const logLines = (process: WatchedProcess) =>
  process
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  collector = await startOtlpReceiver();
  webhooks = await startReceiver();
  database = await createEmptyDatabase('payments_tracing');
  const port = await freePort();
  const env = {
    ...FAST_WEBHOOKS,
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `${testRun().redisPrefix}tracing-${randomBytes(3).toString('hex')}:`,
    PORT: String(port),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  };
  const created = await runNode('cli.js', ['create-shop', '--email', 'traced@example.com', '--name', 'Traced', '--webhook-url', webhooks.url], env);
  expect(created.code).toBe(0);
  apiKey = JSON.parse(created.stdout).api_key;
  service = watchNode('main.js', [], { ...env, WEBHOOK_WORKERS_IN_SERVICE: '0', MAIL_WORKERS_IN_SERVICE: '0' });
  worker = watchNode('worker.js', [], { ...env, OTEL_SERVICE_NAME: 'payments-worker' });
  await service.waitFor(/payment service listening/);
  await worker.waitFor(/webhook worker started/);
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await service?.stop('SIGTERM');
  await worker?.stop('SIGTERM');
  await webhooks?.close();
  await collector?.close().catch(() => undefined);
  if (database) await dropDatabase(database.name);
});

test('a REST create is one trace: the HTTP span, under it the GraphQL operation, under that its SQL; its log lines carry the trace id', async () => {
  const answer = await sellerClient(url, apiKey).create(VALID_PAYMENT);
  expect(answer.status).toBe(200);

  const insert = await collector.waitFor((spans) =>
    spans.find((s) => s.scope === PG && /^insert into "payments"/i.test(String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '')) && ancestry(spans, s).some((a) => a.name === 'mutation CreatePayment')),
  );
  const chain = ancestry(collector.spans, insert);
  const operation = chain.find((s) => s.name === 'mutation CreatePayment')!;
  expect(operation.attributes).toMatchObject({ 'graphql.operation.name': 'CreatePayment', 'graphql.operation.type': 'mutation' });
  const root = chain[chain.length - 1];
  expect(root).toMatchObject({ kind: SERVER, scope: HTTP, name: 'POST /api/v1/payments' });
  expect(root.parentSpanId).toBeUndefined();
  expect(chain.indexOf(operation)).toBeLessThan(chain.indexOf(root));
  expect(insert.resource['service.name']).toBe('payments');

  const requestId = answer.headers['x-request-id'];
  await service.waitFor(new RegExp(`"requestId":"${requestId}".*"msg":"request"`));
  const lines = logLines(service).filter((line) => line.requestId === requestId);
  expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['payment created', 'request']));
  for (const line of lines) expect(line.trace_id).toBe(root.traceId);
});

test("a card completion's trace reaches its webhook delivery and receipt in the worker process, down to the delivery's HTTP POST", async () => {
  const payment = (await sellerClient(url, apiKey).create({ ...VALID_PAYMENT, customer_email: 'customer@example.com' })).body.data;
  const paid = await checkoutClient(url).pay(payment.id, '4242424242424242');
  expect(paid.body.data.submitCard.status).toBe('COMPLETED');
  const [webhook] = await webhooks.waitFor(1);

  const submit = await collector.waitFor((spans) => spans.find((s) => s.name === 'mutation SubmitCard'));
  const trace = submit.traceId;
  const completionRoot = ancestry(collector.spans, submit).at(-1)!;
  expect(completionRoot).toMatchObject({ kind: SERVER, name: 'POST /graphql', parentSpanId: undefined });

  // The webhook's POST: a client span of the worker, under the delivery's span, in the completion's trace.
  const post = await collector.waitFor((spans) => spans.find((s) => s.traceId === trace && s.scope === HTTP && s.kind === CLIENT && ancestry(spans, s).some((a) => a.name === 'webhook.deliver')));
  const deliveryChain = ancestry(collector.spans, post);
  const deliver = deliveryChain.find((s) => s.name === 'webhook.deliver')!;
  expect(deliver.resource['service.name']).toBe('payments-worker');
  expect(deliveryChain.at(-1)).toBe(completionRoot);
  expect(String(post.attributes['url.full'] ?? post.attributes['http.url'])).toBe(webhooks.url);
  // The claim and the outcome are SQL of the same span.
  await collector.waitFor((spans) => (spans.filter((s) => s.parentSpanId === deliver.spanId && s.scope === PG).length >= 4 ? true : undefined));
  // W3C trace context went out with the POST: a seller quoting it names this trace.
  expect(String(webhook.headers.traceparent)).toMatch(new RegExp(`^00-${trace}-${post.spanId}-01$`));

  // The receipt the same statement wrote: sent (kept, without SMTP_URL) by the worker, in the same trace.
  const mail = await collector.waitFor((spans) => spans.find((s) => s.traceId === trace && s.name === 'mail.send'));
  expect(mail.resource['service.name']).toBe('payments-worker');
  expect(ancestry(collector.spans, mail).at(-1)).toBe(completionRoot);

  await worker.waitFor(/"msg":"webhook attempt"/);
  const attempt = logLines(worker).find((line) => line.msg === 'webhook attempt');
  expect(attempt).toMatchObject({ trace_id: trace, span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
});

test('the relays and bull polling make no traces of their own: SQL and Redis outside a request or job are not traced', async () => {
  const before = new Set(collector.spans.map((s) => s.traceId));
  await new Promise((resolve) => setTimeout(resolve, 1500)); // thirty relay polls of each process
  const fresh = collector.spans.filter((s) => !before.has(s.traceId));
  const untraced: ReceivedSpan[] = fresh.filter((s) => !s.parentSpanId && (s.scope === PG || s.scope === '@opentelemetry/instrumentation-ioredis'));
  expect(untraced).toEqual([]);
});

test('with tracing off (no exporter named, or OTEL_SDK_DISABLED=true) the service loads no part of the OpenTelemetry SDK', () => {
  const probe = `require('./dist/src/platform/observability/tracing-bootstrap'); require('./dist/src/apps/service');
    process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((p) => p.includes('@opentelemetry'))));`;
  const run = (env: Record<string, string>) => {
    const child = spawnSync(process.execPath, ['-e', probe], { cwd: `${__dirname}/../../..`, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
    expect(child.status).toBe(0);
    return JSON.parse(child.stdout) as string[];
  };
  expect(run({}).filter((p) => /sdk-node|instrumentation|sdk-trace|exporter/.test(p))).toEqual([]);
  expect(run({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint }).filter((p) => /sdk-node|instrumentation/.test(p))).toEqual([]);
  expect(run({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint }).some((p) => p.includes('@opentelemetry/sdk-node'))).toBe(true);
});

test('SIGTERM with the collector gone: buffered spans are given up on and both processes still exit 0', async () => {
  await sellerClient(url, apiKey).create(VALID_PAYMENT); // spans waiting in the batch when the collector goes
  await collector.close();
  const [serviceExit, workerExit] = await Promise.all([service.stop('SIGTERM'), worker.stop('SIGTERM')]);
  expect({ serviceExit, workerExit }).toEqual({ serviceExit: 0, workerExit: 0 });
});
