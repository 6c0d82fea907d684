import { unavailableError } from '../../src/platform/db/unavailable';

// What the service meets while PostgreSQL fails over behind HAProxy (npm run drill:failover): each is the
// database being away for a moment, a 503 with Retry-After, never the spec's 500.
test.each([
  ["pg's connect time-out (HAProxy accepted, no primary answered)", new Error('timeout expired')],
  ['a newer pg naming its connect time-out', new Error('Connection terminated due to connection timeout')],
  ['knex after the connection under a transaction died', new Error('Transaction query already complete, run with DEBUG=knex:tx for more info')],
  ['a write that reached a node just demoted', { code: '25006', message: 'cannot execute INSERT in a read-only transaction' }],
])('%s is 503 UNAVAILABLE', (_case, error) => {
  expect(unavailableError(error)?.code).toBe('UNAVAILABLE');
});
