/**
 * The service's side of tracing (docs/operations.md, "Tracing"). Nothing here loads OpenTelemetry: with tracing
 * off (the default) no hooks are installed, and each function below is a check of one variable, so the requests'
 * hot paths pay nothing. With it on, src/platform/observability/tracing-sdk.ts starts the SDK before the rest of the
 * service is loaded and installs the hooks these functions forward to.
 */
export type SpanAttributes = Record<string, string | number | boolean>;

export interface TraceHooks {
  /** Runs `work` in a new span, a child of the active one. */
  inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a new span whose parent is the W3C `traceparent` carried by a job or an outbox row (a new
   * trace when there is none), so work done later, elsewhere, joins the trace of the request that caused it.
   */
  continueTrace<T>(traceparent: string | null | undefined, name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /** Runs `work` outside any trace (background loops a request merely woke up). */
  detached<T>(work: () => T): T;
  /** The W3C `traceparent` of the active span, to store with work handed to another process; null outside a span. */
  traceparent(): string | null;
  /** The ids of the active span, for log lines. */
  logFields(): { trace_id?: string; span_id?: string; trace_flags?: string };
  /** Sends the spans still buffered (on shutdown). */
  shutdown(): Promise<void>;
}

let hooks: TraceHooks | null = null;

/** Called once by the SDK's start (src/platform/observability/tracing-sdk.ts). */
export function installTraceHooks(installed: TraceHooks): void {
  hooks = installed;
}

export function tracingOn(): boolean {
  return hooks !== null;
}

export function inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> {
  return hooks ? hooks.inSpan(name, attributes, work) : work();
}

export function continueTrace<T>(traceparent: string | null | undefined, name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> {
  return hooks ? hooks.continueTrace(traceparent, name, attributes, work) : work();
}

/**
 * Runs `work` outside the caller's trace: for a background loop (the outbox relays) that a request only wakes, whose
 * statements belong to no request. Its hand-overs carry the trace of each row instead.
 */
export function outsideTraces<T>(work: () => T): T {
  return hooks ? hooks.detached(work) : work();
}

/** The active span's W3C `traceparent`, or null (always null with tracing off). */
export function currentTraceparent(): string | null {
  return hooks ? hooks.traceparent() : null;
}

/** A pino mixin adding `trace_id` and `span_id` to every log line written inside a span; undefined with tracing off. */
export function traceLogMixin(): (() => object) | undefined {
  const installed = hooks;
  return installed ? () => installed.logFields() : undefined;
}

/** Flushes buffered spans, for at most 5 s: a collector that cannot take them does not hold up the shutdown. Nothing with tracing off. */
export async function shutdownTracing(): Promise<void> {
  if (!hooks) return;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, 5000)));
  await Promise.race([hooks.shutdown().catch(() => undefined), gaveUp]);
  clearTimeout(timer);
}
