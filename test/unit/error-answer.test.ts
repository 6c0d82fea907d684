import { GraphQLError } from 'graphql';
import { errorAnswer } from '../../src/platform/http/error-answer';
import { domainError } from '../../src/shared/errors';

const answered = (error: unknown, malformedPath?: 'PAYMENT_NOT_FOUND' | 'ROUTE_NOT_FOUND') => {
  const { shown, unexpected } = errorAnswer(error, malformedPath);
  return { code: shown.code, status: shown.status, unexpected };
};

describe('one rule turns any error into its answer', () => {
  test('our own error is answered as the catalogue says, and is not an operator matter', () => {
    expect(answered(domainError('PAYMENT_NOT_FOUND'))).toEqual({ code: 'PAYMENT_NOT_FOUND', status: 404, unexpected: false });
  });

  test('our error wrapped by GraphQL (a resolver, or a guard before execution) is still ours', () => {
    const wrapped = new GraphQLError('x', { originalError: domainError('QUERY_TOO_DEEP', 12, 10) });
    expect(answered(wrapped)).toEqual({ code: 'QUERY_TOO_DEEP', status: 400, unexpected: false });
    expect(answered(new GraphQLError('y', { originalError: wrapped }))).toMatchObject({ code: 'QUERY_TOO_DEEP' });
  });

  test("Express's body errors get their documented answers", () => {
    expect(answered(Object.assign(new Error('too large'), { type: 'entity.too.large', status: 413 }))).toMatchObject({ code: 'BODY_TOO_LARGE', unexpected: false });
    expect(answered(Object.assign(new SyntaxError('bad'), { type: 'entity.parse.failed', status: 400 }))).toMatchObject({ code: 'INVALID_JSON', unexpected: false });
  });

  test('a path that is not valid percent-encoding means what the caller says it means there', () => {
    const uriError = Object.assign(new URIError('Failed to decode param'), { status: 400 });
    expect(answered(uriError)).toMatchObject({ code: 'ROUTE_NOT_FOUND', unexpected: false });
    expect(answered(uriError, 'PAYMENT_NOT_FOUND')).toMatchObject({ code: 'PAYMENT_NOT_FOUND', status: 404 });
  });

  test('the database being away is a 503 the operators hear of', () => {
    expect(answered(Object.assign(new Error('terminating'), { code: '57P01' }))).toEqual({ code: 'UNAVAILABLE', status: 503, unexpected: true });
  });

  test("anything else is the spec's 500, never its own message", () => {
    expect(answered(new TypeError('secret internals at /srv/app.js'))).toEqual({ code: 'INTERNAL', status: 500, unexpected: true });
    expect(answered(undefined)).toEqual({ code: 'INTERNAL', status: 500, unexpected: true });
  });
});
