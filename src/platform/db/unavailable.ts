import { domainError, type DomainError } from '../../shared/errors';

/** PostgreSQL and socket codes meaning "the database is not reachable now", not "this request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH',
  '57P01', '57P02', '57P03', // admin shutdown, crash shutdown, cannot connect now
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
  '53300', // too many connections
  '57014', // statement cancelled: ran past DATABASE_STATEMENT_TIMEOUT_MS (rolled back, so a retry is safe)
  '25006', // read-only transaction: a connection reached a node a failover has just demoted, before the proxy noticed
]);
/**
 * `timeout expired` is pg's connect time-out: behind HAProxy the TCP connection is accepted and the server's
 * greeting never comes while no node is primary. Knex says `Transaction query already complete` when the
 * connection under a transaction died half-way (knex ended the transaction; nothing of it was committed).
 */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Timeout acquiring a connection|timeout exceeded when trying to connect|timeout expired|Query read timeout|terminating connection|connection error|not queryable|Transaction query already complete/i;

/**
 * The answer for a failure caused by the database being down or restarting: 503 with Retry-After, so
 * clients back off and retry (spec: clients may retry 5xx), instead of 500. Null for anything else.
 */
export function unavailableError(error: unknown): DomainError | null {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (UNAVAILABLE_CODES.has(String(code)) || UNAVAILABLE_MESSAGES.test(String(message))) return domainError('UNAVAILABLE');
    // graphql-js wraps what a resolver threw (`originalError`), or a thrown value it does not take for an Error
    // (one made in another realm, as under jest) as `thrownValue`.
    const wrapper = cause as { cause?: unknown; originalError?: unknown; thrownValue?: unknown };
    cause = wrapper.cause ?? wrapper.originalError ?? wrapper.thrownValue;
  }
  return null;
}
