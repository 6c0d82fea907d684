import fs from 'node:fs';
import path from 'node:path';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import {
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { errorAnswer } from '../../platform/http/error-answer';
import { inSpan, tracingOn } from '../../platform/observability/tracing';
import { PROJECT_ROOT } from '../../shared/project-root';
import type { GraphQLContext } from './context';

/** One named operation, ready to run. */
export type PreparedOperation<T> = (variables: Record<string, unknown>, context: GraphQLContext) => Promise<T>;

export interface NamedOperations {
  schema: GraphQLSchema;
  /** The file, parsed and validated against the schema. */
  document: DocumentNode;
  /** The runner of one operation. An unknown name throws: callers prepare theirs at start, never per request. */
  prepare<T>(name: string): PreparedOperation<T>;
}

/**
 * Loads the named operations of a `.graphql` file and parses and validates them against the schema once.
 * A broken operation fails the start, never a request.
 *
 * Each prepared operation is compiled by graphql-jit into one function that runs the same resolvers
 * (type-graphql's, with their authorization and validation) without graphql-js walking the document on
 * every call: about 10% of the CPU of a REST retrieve or create (docs/decisions/0012-hot-paths.md).
 */
export function loadOperations(schema: GraphQLSchema, file: string, onUnexpected: (error: unknown, context: GraphQLContext) => void): NamedOperations {
  const document = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations', file), 'utf8'));
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`${file}: ${problems.map((p) => p.message).join('; ')}`);
  const types = new Map(
    document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
      .map((d) => [d.name?.value, d.operation]),
  );
  const prepare = <T>(name: string): PreparedOperation<T> => {
    const type = types.get(name);
    if (!type) throw new Error(`Unknown operation ${name} in ${file}`);
    const compiled = compileQuery(schema, document, name);
    if (!isCompiledQuery(compiled)) throw new Error(`${file}: ${name}: ${compiled.errors?.map((e) => e.message).join('; ')}`);
    const run: PreparedOperation<T> = async (variables, context) => {
      const result = await compiled.query(undefined, context, variables);
      const error = result.errors?.[0];
      if (!error) return result.data as T;
      const { shown, unexpected } = errorAnswer(error.originalError ?? error);
      if (unexpected) onUnexpected(error.originalError ?? error, context);
      throw shown;
    };
    // graphql-jit runs the operation without graphql-js's execute, which the GraphQL instrumentation wraps: with
    // tracing on, the operation is a span of its own here (the REST call's HTTP span above, its SQL below).
    // Chosen once: with tracing off the runner is the plain function.
    if (!tracingOn()) return run;
    const attributes = { 'graphql.operation.name': name, 'graphql.operation.type': type };
    return (variables, context) => inSpan(`${type} ${name}`, attributes, () => run(variables, context));
  };
  return { schema, document, prepare };
}
