import type { FieldNode, FragmentDefinitionNode, GraphQLNamedType, GraphQLObjectType, GraphQLSchema, OperationDefinitionNode, SelectionSetNode } from 'graphql';

/** The type an operation's top-level fields are selected on: Mutation, Subscription or Query (null when the schema has none). */
export function rootTypeOf(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType | null | undefined {
  return operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
}

/**
 * Each field of a selection set with the type it is selected on, fragments entered as GraphQL's own field
 * collection does: an inline fragment or a spread on its type condition (or the enclosing type), and a named
 * fragment once per `visited` (so `...F ...F` nested thirty times is thirty steps, not 2^30). The caller walks a
 * field's own selection set, with the `visited` that suits it.
 */
export function eachField(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  selections: SelectionSetNode,
  type: GraphQLNamedType,
  visited: Set<string>,
  field: (selection: FieldNode, on: GraphQLNamedType) => void,
): void {
  for (const selection of selections.selections) {
    if (selection.kind === 'FragmentSpread') {
      const fragment = fragments[selection.name.value];
      if (!fragment || visited.has(fragment.name.value)) continue;
      visited.add(fragment.name.value);
      eachField(schema, fragments, fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? type, visited, field);
    } else if (selection.kind === 'InlineFragment') {
      const on = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? type) : type;
      eachField(schema, fragments, selection.selectionSet, on, visited, field);
    } else {
      field(selection, type);
    }
  }
}
