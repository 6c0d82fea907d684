import { GraphQLError, GraphQLEnumType, GraphQLInputObjectType, GraphQLInt, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, validate } from 'graphql';
import { errorFormatter, withoutSuggestion } from '../../src/api/graphql/error-answers';
import { domainError } from '../../src/shared/errors';

/** graphql-js's own messages, from a small schema, so the rule follows the library's wording. */
const Status = new GraphQLEnumType({ name: 'Status', values: { PENDING: {}, PAID: {} } });
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      shop: { type: GraphQLString },
      shops: { type: GraphQLString },
      shopCount: { type: GraphQLInt },
      payments: { type: GraphQLString, args: { status: { type: Status }, filter: { type: new GraphQLInputObjectType({ name: 'Filter', fields: { email: { type: GraphQLString } } }) } } },
    },
  }),
});
const messages = (query: string) => validate(schema, parse(query)).map((error) => error.message);

describe('suggestions are cut from graphql-js messages', () => {
  test.each([
    ['one suggestion', '{ shp }', 'Cannot query field "shp" on type "Query".'],
    ['several suggestions', '{ shopz }', 'Cannot query field "shopz" on type "Query".'],
    ['an enum value', '{ payments(status: PENDNG) }', 'Value "PENDNG" does not exist in "Status" enum.'],
    ['an input field', '{ payments(filter: { emial: "a" }) }', 'Field "emial" is not defined by type "Filter".'],
    ['an argument', '{ payments(statuz: PAID) }', 'Unknown argument "statuz" on field "Query.payments".'],
  ])('%s', (_what, query, expected) => {
    const [message] = messages(query);
    expect(message).toMatch(/Did you mean/);
    expect(withoutSuggestion(message)).toBe(expected);
  });

  test('a message without a suggestion is left alone, a question included', () => {
    expect(withoutSuggestion('Variable "$s" got invalid value "why?"; Int cannot represent non-integer value: "why?"')).toBe(
      'Variable "$s" got invalid value "why?"; Int cannot represent non-integer value: "why?"',
    );
  });
});

describe('errorFormatter answers from an allow-list', () => {
  const stacktrace = ['Error: boom', '    at resolve (/srv/app/src/x.ts:1:1)'];
  const format = errorFormatter({ stackTraces: false });

  test('an unexpected error: the spec\'s 500 message, no trace, no original message', () => {
    const original = new Error('connection to 10.0.0.5 refused');
    const error = new GraphQLError(original.message, { originalError: original, path: ['payment'] });
    const answer = format({ message: original.message, path: ['payment'], extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace, exception: { stacktrace } } }, error);
    expect(answer).toEqual({ message: 'An unexpected error occurred', path: ['payment'], extensions: { code: 'INTERNAL', status: 500 } });
  });

  test('GraphQL\'s own client errors keep message and locations, lose everything else', () => {
    const error = new GraphQLError('Syntax Error: Expected Name, found <EOF>.', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    const answer = format({ message: error.message, locations: [{ line: 1, column: 3 }], extensions: { code: 'GRAPHQL_PARSE_FAILED', stacktrace, detail: 'x' } }, error);
    expect(answer).toEqual({ message: error.message, locations: [{ line: 1, column: 3 }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
  });

  test('a domain error: its catalogue code and status', () => {
    const known = domainError('PAYMENT_NOT_FOUND');
    const error = new GraphQLError(known.message, { originalError: known, path: ['payment'] });
    expect(format({ message: known.message, path: ['payment'], extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace } }, error)).toEqual({
      message: 'Payment not found', path: ['payment'], extensions: { code: 'PAYMENT_NOT_FOUND', status: 404 },
    });
  });

  test('with stack traces on (local debugging) the trace is kept', () => {
    const error = new GraphQLError('Syntax Error', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect(errorFormatter({ stackTraces: true })({ message: 'Syntax Error', extensions: { code: 'GRAPHQL_PARSE_FAILED', stacktrace } }, error).extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED', stacktrace });
  });
});
