import fs from 'node:fs';
import path from 'node:path';
import {
  execute,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { errorAnswer } from '../http/error-answer';
import { PROJECT_ROOT } from '../shared/project-root';
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
 */
export function loadOperations(schema: GraphQLSchema, file: string, onUnexpected: (error: unknown, context: GraphQLContext) => void): NamedOperations {
  const document = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations', file), 'utf8'));
  const problems = validate(schema, document);
  if (problems.length > 0) throw new Error(`${file}: ${problems.map((p) => p.message).join('; ')}`);
  const names = new Set(
    document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
      .map((d) => d.name?.value),
  );
  const prepare = <T>(name: string): PreparedOperation<T> => {
    if (!names.has(name)) throw new Error(`Unknown operation ${name} in ${file}`);
    return async (variables, context) => {
      const result = await execute({ schema, document, operationName: name, variableValues: variables, contextValue: context });
      const error = result.errors?.[0];
      if (!error) return result.data as T;
      const { shown, unexpected } = errorAnswer(error.originalError ?? error);
      if (unexpected) onUnexpected(error.originalError ?? error, context);
      throw shown;
    };
  };
  return { schema, document, prepare };
}
