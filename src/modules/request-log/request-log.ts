import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { IDEMPOTENCY_KEY_MAX_LENGTH, PAGE_LIMIT_MAX } from '../../shared/limits';
import { deleteApiRequestsBefore, insertApiRequests, selectApiRequests, type ApiRequestEntry, type ApiRequestRow } from './request-log-store';

/**
 * The request log (docs/dashboard.md, "Request log"): each API request a shop's key made (REST and GraphQL), what
 * came back and how long it took, so a seller can see why an integration fails. No bodies, no headers but the
 * Idempotency-Key, never a key or secret. Written in batches after the answers went out, kept 30 days.
 */
export const REQUEST_LOG_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** The longest path kept; a longer one is cut (the facade's own paths are far shorter). */
const PATH_MAX_LENGTH = 512;
/** A text search looks through at most this many newest entries the other criteria select. */
export const REQUEST_LOG_TEXT_SCAN = 50_000;
export const REQUEST_LOG_SEARCH_MAX_LENGTH = IDEMPOTENCY_KEY_MAX_LENGTH;

/** What the HTTP layer saw of one request (src/api/http/request-log.ts), before the log's rules. */
export interface SeenRequest {
  shopId: string;
  requestId: string;
  source: 'rest' | 'graphql';
  method: string;
  /** As requested, query string included: only the path is kept. */
  url: string;
  /** GraphQL: the body's `operationName`, whatever it was. */
  operationName: unknown;
  status: number;
  error: { code: string; message: string } | null;
  idempotencyKey: string | undefined;
  durationMs: number;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

/** Secrets a caller might put in a path or header by mistake: a key, a webhook secret, an admin token, whole or in part. */
const SECRETS = [/svc_live_[0-9a-f]{8,}/i, /whsec_[A-Za-z0-9+/=]{8,}/, /adm_[0-9a-f]{32,}/i];
const REDACTED = '[redacted]';
const holdsSecret = (text: string) => SECRETS.some((pattern) => pattern.test(text));
/** C0 and C1 controls and DEL (PostgreSQL text refuses U+0000; none of them belongs in a log line). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** What a path must hold for a segment of it to be looked at closely: most paths hold none of it. */
const MAY_HOLD_SECRET = /svc_|whsec_|adm_|%|[\u0000-\u001f\u007f-\u009f]/i;

/** The path alone; a segment holding a secret, in any percent-encoding, is replaced whole. */
export function loggedPath(url: string): string {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  if (!MAY_HOLD_SECRET.test(path)) return path.slice(0, PATH_MAX_LENGTH);
  const segments = path.split('/').map((segment) => (holdsSecret(segment) || holdsSecret(decoded(segment)) ? REDACTED : segment));
  return segments.join('/').replace(CONTROLS, '').slice(0, PATH_MAX_LENGTH);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

/** The entry the log keeps of a request: the path without its query, secrets and control characters out, lengths capped. */
export function requestLogEntry(seen: SeenRequest): ApiRequestEntry {
  const key = seen.idempotencyKey?.replace(CONTROLS, '').slice(0, IDEMPOTENCY_KEY_MAX_LENGTH);
  return {
    shopId: seen.shopId,
    requestId: seen.requestId,
    source: seen.source,
    method: seen.method.slice(0, 16),
    path: loggedPath(seen.url),
    operationName: typeof seen.operationName === 'string' && OPERATION_NAME.test(seen.operationName) ? seen.operationName : null,
    status: seen.status,
    errorCode: seen.error?.code.slice(0, 100) ?? null,
    errorMessage: seen.error?.message.replace(CONTROLS, ' ').slice(0, 500) ?? null,
    idempotencyKey: key ? (holdsSecret(key) ? REDACTED : key) : null,
    durationMs: Math.max(0, Math.round(seen.durationMs)),
    startedAt: new Date(seen.startedAt),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Reading

/** Which HTTP statuses a page shows. */
export enum RequestOutcome {
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
  CLIENT_ERROR = 'client_error',
  SERVER_ERROR = 'server_error',
}

const STATUS_RANGES: Record<RequestOutcome, [number, number]> = {
  [RequestOutcome.SUCCEEDED]: [100, 399],
  [RequestOutcome.FAILED]: [400, 599],
  [RequestOutcome.CLIENT_ERROR]: [400, 499],
  [RequestOutcome.SERVER_ERROR]: [500, 599],
};

export interface RequestLogFilter {
  outcome?: RequestOutcome | null;
  /** Part of the path (a payment id), or a whole Idempotency-Key or X-Request-Id. */
  text?: string | null;
  createdFrom?: Date | null;
  createdTo?: Date | null;
}

export interface RequestLogPage {
  items: ApiRequestRow[];
  /** Where the next (older) page starts; null on the last. */
  nextBefore: string | null;
}

/** The cursor of an entry: its start in ms and its id; opaque to callers. */
const cursorOf = (row: ApiRequestRow) => `${row.startedAt.getTime()}-${row.id}`;
const CURSOR = /^(\d{1,15})-(\d{1,19})$/;

/** One page of a shop's log, newest first; every criterion is checked before the database is asked. */
export async function requestLogPage(em: EntityManager, shopId: string, filter: RequestLogFilter, limit: number | null | undefined, before: string | null | undefined): Promise<RequestLogPage> {
  const size = limit ?? 20;
  if (!Number.isSafeInteger(size) || size < 1 || size > PAGE_LIMIT_MAX) throw domainError('LIMIT_INVALID');
  const cursor = before ? CURSOR.exec(before) : null;
  if (before && !cursor) throw domainError('REQUEST_LOG_CURSOR_INVALID');
  const text = filter.text?.trim() || null;
  if (text && text.length > REQUEST_LOG_SEARCH_MAX_LENGTH) throw domainError('REQUEST_LOG_SEARCH_INVALID');
  const { createdFrom = null, createdTo = null } = filter;
  if (createdFrom && createdTo && createdFrom >= createdTo) throw domainError('DATE_RANGE_INVALID');
  const [statusFrom, statusTo] = filter.outcome ? STATUS_RANGES[filter.outcome] : [null, null];
  // One more than the page: whether an older page exists, without counting the whole log.
  const rows = await selectApiRequests(em, {
    shopId, statusFrom, statusTo, text, createdFrom, createdTo, limit: size + 1, textScan: REQUEST_LOG_TEXT_SCAN,
    before: cursor ? { startedAt: new Date(Number(cursor[1])), id: cursor[2] } : null,
  });
  const items = rows.slice(0, size);
  return { items, nextBefore: rows.length > size ? cursorOf(items[items.length - 1]) : null };
}

// ---------------------------------------------------------------------------------------------------------
// Writing and keeping

export interface RequestLog {
  /** Takes one request; never throws and never waits: the entry is written with the next batch. */
  record(seen: SeenRequest): void;
  /** Writes what is waiting now (tests, shutdown). */
  flush(): Promise<void>;
  /** One pass of the retention sweep: deletes what is older than 30 days; answers how many entries went. */
  sweep(): Promise<number>;
  /** Stops the timers and writes what is waiting; before closing the database. */
  stop(): Promise<void>;
}

export interface RequestLogOptions {
  /** How long an entry waits for others to join its batch. */
  flushDelayMs?: number;
  /** How often each instance deletes entries past the retention. */
  sweepIntervalMs?: number;
}

/** Entries per insert. */
const BATCH_ROWS = 500;
/** Entries held while the database is slow or away; past it new ones are dropped (and counted in the log). */
const MAX_WAITING = 20_000;
/** After a refused write, how long the entries wait before the next try. */
const RETRY_DELAY_MS = 5000;
const SWEEP_BATCH_ROWS = 10_000;
const FIRST_SWEEP_DELAY_MS = 60_000;
/** Deletes per sweep pass, so one pass after a long stop stays short; the next pass goes on. */
const SWEEP_MAX_BATCHES = 50;

/**
 * The log's writer and sweep in this process. A request only hands its entry over (an array push after the answer
 * finished); batches of up to 500 go to PostgreSQL in one statement, a moment later. A failed write is logged and
 * its batch tried again with the next one; the API's answers never wait for it nor fail with it. Every instance
 * sweeps hourly (two sweeps at once delete different rows or none).
 */
export function startRequestLog(em: () => EntityManager, logger: Logger, options: RequestLogOptions = {}): RequestLog {
  const flushDelayMs = options.flushDelayMs ?? 250;
  let waiting: SeenRequest[] = [];
  let dropped = 0;
  let timer: NodeJS.Timeout | null = null;
  let writes: Promise<void> = Promise.resolve();
  let stopped = false;

  /** Writes every waiting entry, a batch at a time; false when the database refused (the entries wait on). */
  const write = async (): Promise<boolean> => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, BATCH_ROWS);
      try {
        await insertApiRequests(em(), batch.map(requestLogEntry));
      } catch (error) {
        logger.warn({ err: (error as Error).message, waiting: waiting.length }, 'request log not written; trying again in a few seconds');
        return false;
      }
      waiting = waiting.slice(batch.length);
    }
    if (dropped > 0) {
      logger.warn({ dropped }, 'request log entries dropped while the database did not take them');
      dropped = 0;
    }
    return true;
  };
  const schedule = (delayMs: number) => {
    if (timer || stopped) return;
    timer = setTimeout(() => void flush(), delayMs);
    timer.unref();
  };
  /** One write after the one under way, so batches go in order and `await flush()` has written what was waiting. */
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    writes = writes.then(write).then((written) => {
      if (!written) schedule(RETRY_DELAY_MS);
    });
    return writes;
  };

  let sweeping: Promise<number> | null = null;
  const sweep = () => {
    sweeping ??= (async () => {
      const cutoff = new Date(Date.now() - REQUEST_LOG_RETENTION_DAYS * DAY_MS);
      let deleted = 0;
      for (let batch = 0; batch < SWEEP_MAX_BATCHES; batch++) {
        const gone = await deleteApiRequestsBefore(em(), cutoff, SWEEP_BATCH_ROWS);
        deleted += gone;
        if (gone < SWEEP_BATCH_ROWS) break;
      }
      return deleted;
    })().finally(() => (sweeping = null));
    return sweeping;
  };
  const sweepNow = () => void sweep().catch((error: Error) => logger.warn({ err: error.message }, 'request log sweep failed; trying again at the next interval'));
  const sweepTimer = setInterval(sweepNow, options.sweepIntervalMs ?? 3_600_000);
  sweepTimer.unref();
  // A process restarted more often than hourly sweeps too, a minute after it starts.
  const firstSweep = setTimeout(sweepNow, FIRST_SWEEP_DELAY_MS);
  firstSweep.unref();

  return {
    record(seen) {
      if (stopped) return;
      if (waiting.length >= MAX_WAITING) {
        dropped++;
        return;
      }
      // Made into its entry with its batch: nothing but the push after an answer.
      waiting.push(seen);
      if (waiting.length === BATCH_ROWS) void flush();
      else schedule(flushDelayMs);
    },
    flush,
    sweep,
    async stop() {
      stopped = true;
      clearInterval(sweepTimer);
      clearTimeout(firstSweep);
      await sweeping?.catch(() => undefined);
      await flush();
    },
  };
}
