import type { EntityManager } from '@mikro-orm/postgresql';
import { pooledQuery } from '../../platform/db/pooled-query';

// The request log's SQL (`api_requests`): the writer's batched insert, a shop's newest-first pages, the retention sweep.

/** One API request as the log keeps it (request-log.ts makes it from what the HTTP layer saw). */
export interface ApiRequestEntry {
  shopId: string;
  requestId: string;
  source: 'rest' | 'graphql';
  method: string;
  /** Without the query string, secrets replaced (request-log.ts). */
  path: string;
  /** GraphQL: the operation name the caller gave, when it is a name. */
  operationName: string | null;
  status: number;
  /** The catalogue's code and message of the error answered (the envelope's, or the first GraphQL error's). */
  errorCode: string | null;
  errorMessage: string | null;
  idempotencyKey: string | null;
  durationMs: number;
  startedAt: Date;
}

/** A stored entry, with its place in the log. */
export interface ApiRequestRow extends ApiRequestEntry {
  id: string;
}

/**
 * Many entries in one statement: the writer's batch, outside any transaction. The batch travels as one bound value:
 * `em.execute` would write it into the text, escaping its tens of kilobytes a character at a time.
 */
export async function insertApiRequests(em: EntityManager, entries: readonly ApiRequestEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await pooledQuery(
    em,
    `insert into "api_requests" ("shop_id", "request_id", "source", "method", "path", "operation_name", "status", "error_code",
                                 "error_message", "idempotency_key", "duration_ms", "started_at")
     select r."shop_id", r."request_id", r."source", r."method", r."path", r."operation_name", r."status", r."error_code",
            r."error_message", r."idempotency_key", r."duration_ms", r."started_at"
       from jsonb_to_recordset(?::jsonb) as r("shop_id" text, "request_id" text, "source" text, "method" text, "path" text,
            "operation_name" text, "status" smallint, "error_code" text, "error_message" text, "idempotency_key" text,
            "duration_ms" integer, "started_at" timestamptz)`,
    [
      JSON.stringify(
        entries.map((e) => ({
          shop_id: e.shopId,
          request_id: e.requestId,
          source: e.source,
          method: e.method,
          path: e.path,
          operation_name: e.operationName,
          status: e.status,
          error_code: e.errorCode,
          error_message: e.errorMessage,
          idempotency_key: e.idempotencyKey,
          duration_ms: e.durationMs,
          started_at: e.startedAt.toISOString(),
        })),
      ),
    ],
  );
}

/** Which of a shop's entries a page holds (request-log.ts checks each criterion first). */
export interface ApiRequestQuery {
  shopId: string;
  /** Inclusive bounds of the HTTP status. */
  statusFrom: number | null;
  statusTo: number | null;
  /** Part of the path, or the whole idempotency key or request id. */
  text: string | null;
  createdFrom: Date | null;
  createdTo: Date | null;
  /** Only entries after this place in the newest-first order. */
  before: { startedAt: Date; id: string } | null;
  limit: number;
  /** A text search looks through at most this many newest entries the other criteria select. */
  textScan: number;
}

/**
 * One page of a shop's log, newest first (the shop's index walks it in that order). A text search looks for its text
 * among a bounded number of entries, so its cost does not grow with 30 days of a busy shop.
 */
export async function selectApiRequests(em: EntityManager, query: ApiRequestQuery): Promise<ApiRequestRow[]> {
  const where = ['r."shop_id" = ?'];
  const params: unknown[] = [query.shopId];
  const add = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (query.statusFrom !== null) add('r."status" >= ?', query.statusFrom);
  if (query.statusTo !== null) add('r."status" <= ?', query.statusTo);
  if (query.createdFrom) add('r."started_at" >= ?', query.createdFrom);
  if (query.createdTo) add('r."started_at" < ?', query.createdTo);
  if (query.before) add('(r."started_at", r."id") < (?::timestamptz, ?::bigint)', query.before.startedAt, query.before.id);
  const order = 'order by r."started_at" desc, r."id" desc';
  // `seq` keeps the id as a number for the text search's outer order (`id` is answered as text).
  const columns = `r."id" as seq, r."id"::text as id, r."shop_id", r."request_id", r."source", r."method", r."path", r."operation_name", r."status",
                   r."error_code", r."error_message", r."idempotency_key", r."duration_ms", r."started_at"`;
  const selected = `select ${columns} from "api_requests" r where ${where.join(' and ')} ${order}`;
  const rows = query.text
    ? await em.execute<RawRow[]>(
        `select * from (${selected} limit ?) r
          where strpos(r."path", ?) > 0 or r."idempotency_key" = ? or r."request_id" = ?
          order by r."started_at" desc, r."seq" desc limit ?`,
        [...params, query.textScan, query.text, query.text, query.text, query.limit],
      )
    : await em.execute<RawRow[]>(`${selected} limit ?`, [...params, query.limit]);
  return rows.map(rowOf);
}

interface RawRow {
  id: string;
  shop_id: string;
  request_id: string;
  source: 'rest' | 'graphql';
  method: string;
  path: string;
  operation_name: string | null;
  status: number;
  error_code: string | null;
  error_message: string | null;
  idempotency_key: string | null;
  duration_ms: number;
  started_at: Date | string;
}

function rowOf(row: RawRow): ApiRequestRow {
  return {
    id: row.id,
    shopId: row.shop_id,
    requestId: row.request_id,
    source: row.source,
    method: row.method,
    path: row.path,
    operationName: row.operation_name,
    status: Number(row.status),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    idempotencyKey: row.idempotency_key,
    durationMs: Number(row.duration_ms),
    startedAt: new Date(row.started_at),
  };
}

/** Deletes up to `batch` entries that started before `cutoff`, oldest first; answers how many went. */
export async function deleteApiRequestsBefore(em: EntityManager, cutoff: Date, batch: number): Promise<number> {
  const result = await em.execute<{ affectedRows: number }>(
    `delete from "api_requests" where "id" in (select "id" from "api_requests" where "started_at" < ? order by "started_at" limit ?)`,
    [cutoff, batch],
    'run',
  );
  return result.affectedRows;
}
