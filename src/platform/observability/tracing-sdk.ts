import type { IncomingMessage } from 'node:http';
import { context, defaultTextMapGetter, defaultTextMapSetter, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { core, NodeSDK, type tracing } from '@opentelemetry/sdk-node';
import { getSpanProcessorsFromEnv } from '@opentelemetry/sdk-node/build/src/utils';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { keepAsyncContextOn } from '../../shared/async-context';
import type { TracingConfig } from '../../shared/config';
import { cleanSpan, type CleanableSpan } from './trace-hygiene';
import { installTraceHooks, type SpanAttributes, type TraceHooks } from './tracing';

/** Probes and scrapes every few seconds would each be a trace of their own, telling nothing. */
const UNTRACED_PATHS = new Set(['/metrics', '/livez', '/readyz', '/healthz']);
/** Paths that are themselves a secret (a refund tracking link), however cased or slashed, as routing takes them: not traced. */
const SECRET_PATH = /^\/+refunds\//i;

/**
 * Cleans each span as it ends (trace-hygiene.ts), before the exporting processors that follow it take it: one
 * place for every instrumentation's attributes and events.
 */
const hygiene: tracing.SpanProcessor = {
  onStart: () => undefined,
  onEnd: (span) => cleanSpan(span as unknown as CleanableSpan),
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * Starts the OpenTelemetry SDK (loaded only when tracing is on: src/platform/observability/tracing-bootstrap.ts) with the
 * instrumentations of the hops a payment takes: HTTP in and out (the REST facade, /graphql, webhook POSTs, the
 * acquirer), Express's routers and handlers, graphql-js (Apollo at /graphql), pg and ioredis. SQL and Redis
 * commands are traced only inside a span (a request's, a job's): the relays' and bull's polling would otherwise
 * be a stream of one-span traces. Spans go where the OTEL_* variables say (OTLP over HTTP by default), each
 * cleaned first (trace-hygiene.ts); metrics and logs stay with Prometheus and pino, so the SDK exports neither.
 */
export function startTracing(settings: TracingConfig): void {
  // Context travels in an AsyncLocalStorage: it must stay enabled between runs (src/shared/async-context.ts).
  keepAsyncContextOn();
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    metricReaders: [],
    logRecordProcessors: [],
    // The SDK's own choice of exporters from OTEL_*, behind the cleaning.
    spanProcessors: [hygiene, ...getSpanProcessorsFromEnv(undefined)],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]) || SECRET_PATH.test(req.url ?? ''),
      }),
      // Routers and route handlers; the middleware layers (headers, request id, metrics, body parsing) would
      // add a dozen spans to every request and say little the HTTP span does not.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // A document's literal values are written as `*` (allowValues), its variables never.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true, allowValues: false }),
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command's name only: its keys hold hashes of keys and sessions, its arguments values.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  installTraceHooks(hooksOf(sdk));
}

function hooksOf(sdk: NodeSDK): TraceHooks {
  const tracer = trace.getTracer('hosted-checkout-payments');
  // Jobs and outbox rows always carry W3C trace context, whatever OTEL_PROPAGATORS chooses for HTTP.
  const w3c = new core.W3CTraceContextPropagator();

  const run = async <T>(span: Span, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  };

  return {
    inSpan: (name, attributes, work) => tracer.startActiveSpan(name, { attributes }, (span) => run(span, work)),
    continueTrace<T>(traceparent: string | null | undefined, name: string, attributes: SpanAttributes, work: () => Promise<T>) {
      const parent: Context = traceparent ? w3c.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter) : ROOT_CONTEXT;
      return tracer.startActiveSpan(name, { attributes, kind: SpanKind.CONSUMER }, parent, (span) => run(span, work));
    },
    detached: (work) => context.with(ROOT_CONTEXT, work),
    traceparent() {
      const carrier: Record<string, string> = {};
      w3c.inject(context.active(), carrier, defaultTextMapSetter);
      return carrier.traceparent ?? null;
    },
    logFields() {
      const span = trace.getSpan(context.active())?.spanContext();
      if (!span || !isSpanContextValid(span)) return {};
      return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}` };
    },
    shutdown: () => sdk.shutdown(),
  };
}
