/**
 * Every request a drill makes goes through `call`, which records what the caller saw: the HTTP status, the
 * GraphQL error code when the answer carries one, Retry-After, and how long the caller waited. A caller that
 * waits longer than CALLER_TIMEOUT_MS gives up, and that counts as a hang.
 */
export const CALLER_TIMEOUT_MS = 15_000;
/** The longest wait the drills accept for any answer during a failure. */
export const LONGEST_ACCEPTABLE_WAIT_MS = 10_000;

export interface CallRecord {
  op: string;
  startedAt: number;
  ms: number;
  /** `200`, `503`, `graphql:UNAVAILABLE`, `timeout`, `network-error`. */
  outcome: string;
  retryAfter: string | null;
  /** An answer the spec calls a fault: HTTP 500, or a GraphQL error with code INTERNAL or status 500. */
  fault: boolean;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  ok: boolean;
}

export class CallLog {
  readonly records: CallRecord[] = [];

  async call<T = any>(op: string, url: string, init: RequestInit): Promise<Answer<T> | null> {
    const startedAt = Date.now();
    let answer: Answer<T> | null = null;
    let outcome: string;
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(CALLER_TIMEOUT_MS) });
      const text = await res.text();
      const body = text ? (JSON.parse(text) as T) : (undefined as T);
      answer = { status: res.status, body, headers: res.headers, ok: res.ok && !graphqlErrorOf(body) };
      outcome = outcomeOf(res.status, body);
    } catch (error) {
      outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network-error';
    }
    const code = answer && graphqlErrorOf(answer.body);
    this.records.push({
      op,
      startedAt,
      ms: Date.now() - startedAt,
      outcome,
      retryAfter: answer?.headers.get('retry-after') ?? null,
      fault: answer?.status === 500 || code?.extensions?.code === 'INTERNAL' || code?.extensions?.status === 500,
    });
    return answer;
  }

  /**
   * Seconds from the start of the first call after `from` that met the outage to the end of the last one: the
   * outage as callers lived it (probes left out: they ask on purpose).
   */
  failingSeconds(from: number): number {
    const failed = this.records.filter((r) => r.startedAt >= from && !r.op.startsWith('probe:') && isOutage(r.outcome));
    if (failed.length === 0) return 0;
    const first = Math.min(...failed.map((r) => r.startedAt));
    const last = Math.max(...failed.map((r) => r.startedAt + r.ms));
    return Math.round((last - first) / 100) / 10;
  }

  /** Counts of outcomes per operation among the calls started in [from, to). */
  summary(from = 0, to = Infinity): CallSummary {
    const picked = this.records.filter((r) => r.startedAt >= from && r.startedAt < to);
    const outcomes: Record<string, Record<string, number>> = {};
    for (const r of picked) {
      outcomes[r.op] ??= {};
      outcomes[r.op][r.outcome] = (outcomes[r.op][r.outcome] ?? 0) + 1;
    }
    // Every 503 of the API promises Retry-After; a probe of /readyz answers 503 without it, by design.
    const unavailable = picked.filter((r) => !r.op.startsWith('probe:') && r.outcome === '503');
    return {
      calls: picked.length,
      outcomes,
      http_503: unavailable.length,
      http_503_with_retry_after: unavailable.filter((r) => r.retryAfter !== null).length,
      graphql_unavailable: picked.filter((r) => r.outcome === 'graphql:UNAVAILABLE').length,
      faults_500: picked.filter((r) => r.fault).length,
      timeouts: picked.filter((r) => r.outcome === 'timeout').length,
      network_errors: picked.filter((r) => r.outcome === 'network-error').length,
      longest_wait_ms: picked.reduce((max, r) => Math.max(max, r.ms), 0),
    };
  }
}

export interface CallSummary {
  calls: number;
  outcomes: Record<string, Record<string, number>>;
  /** HTTP 503 answers (REST, and GraphQL refused before it ran), and how many carried Retry-After. */
  http_503: number;
  http_503_with_retry_after: number;
  /** GraphQL answers (HTTP 200) whose error is UNAVAILABLE, extensions.status 503: the same advice in GraphQL's shape. */
  graphql_unavailable: number;
  faults_500: number;
  timeouts: number;
  network_errors: number;
  longest_wait_ms: number;
}

/**
 * An answer caused by something being away, not by the request: what a client retries. PROCESSOR_UNAVAILABLE is the
 * checkout's answer when a card payment's outcome could not be recorded (reconciliation settles it).
 */
const OUTAGE_OUTCOMES = new Set(['500', '503', 'timeout', 'network-error', 'graphql:UNAVAILABLE', 'graphql:INTERNAL', 'graphql:PROCESSOR_UNAVAILABLE']);

export function isOutage(outcome: string): boolean {
  return OUTAGE_OUTCOMES.has(outcome);
}

interface GraphQLError {
  message: string;
  extensions?: { code?: string; status?: number };
}

function graphqlErrorOf(body: unknown): GraphQLError | undefined {
  return (body as { errors?: GraphQLError[] } | undefined)?.errors?.[0];
}

export function outcomeOf(status: number, body: unknown): string {
  const error = graphqlErrorOf(body);
  return error && status === 200 ? `graphql:${error.extensions?.code ?? 'unknown'}` : String(status);
}

/** Whether the callers' experience passed: no 500, no hang, no wait past the limit, every REST 503 with Retry-After. */
export function callersProblems(summary: CallSummary): string[] {
  const problems: string[] = [];
  if (summary.faults_500 > 0) problems.push(`${summary.faults_500} answers were 500 (or INTERNAL)`);
  if (summary.timeouts > 0) problems.push(`${summary.timeouts} calls hung past ${CALLER_TIMEOUT_MS} ms`);
  if (summary.network_errors > 0) problems.push(`${summary.network_errors} calls lost their connection to the service`);
  if (summary.longest_wait_ms > LONGEST_ACCEPTABLE_WAIT_MS) problems.push(`a caller waited ${summary.longest_wait_ms} ms (limit ${LONGEST_ACCEPTABLE_WAIT_MS})`);
  if (summary.http_503_with_retry_after < summary.http_503) problems.push(`${summary.http_503 - summary.http_503_with_retry_after} 503 answers had no Retry-After`);
  return problems;
}
