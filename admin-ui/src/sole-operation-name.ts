import { Kind, parse } from 'graphql';

/**
 * The name of the document's only operation. GraphiQL learns the operation name from its editor 100 ms after
 * a change, so ▶ pressed right after picking a preset would otherwise run the previous preset's operation.
 * Anything else (several operations, an unnamed one, a half-typed document) is left to GraphiQL.
 */
export function soleOperationName(query: string): string | undefined {
  try {
    const operations = parse(query).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
    return operations.length === 1 && operations[0].kind === Kind.OPERATION_DEFINITION ? operations[0].name?.value : undefined;
  } catch {
    return undefined;
  }
}
