import { unavailableError } from '../../src/platform/db/unavailable';

// The database being away is a 503 with Retry-After (clients retry), never the spec's 500, however the error
// reaches us: raw, as a resolver's error wrapped by graphql-js, or as a value graphql-js did not take for an Error.
const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

test.each([
  ['a refused connection', refused],
  ['PostgreSQL shutting down', shutdown],
  ['a cancelled statement (statement_timeout)', { code: '57014', message: 'canceling statement due to statement timeout' }],
  ['a pool time-out, known by its message', new Error('Timeout acquiring a connection. The pool is probably full.')],
  ['wrapped by graphql-js as originalError', { message: 'x', originalError: refused }],
  ['wrapped by graphql-js as thrownValue (NonErrorThrown)', { name: 'NonErrorThrown', message: 'Unexpected error value', thrownValue: refused }],
  ['as the cause of another error', new Error('query failed', { cause: shutdown })],
])('%s is 503 UNAVAILABLE', (_case, error) => {
  expect(unavailableError(error)?.code).toBe('UNAVAILABLE');
});

test.each([
  ['a programming error', new TypeError('x is not a function')],
  ['a constraint violation', { code: '23505', message: 'duplicate key value violates unique constraint' }],
  ['nothing', undefined],
])('%s is not the database being away', (_case, error) => {
  expect(unavailableError(error)).toBeNull();
});
