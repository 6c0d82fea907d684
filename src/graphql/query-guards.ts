import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { DomainError, domainError } from '../shared/errors';
import type { GraphQLContext } from './context';
import { PAGE_LIMIT_DEFAULT } from '../shared/limits';

/** Limits on what one document sent to /graphql may ask for (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST). */
export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
}

/** How many items a list is assumed to hold when nothing on the way down says (no `limit` argument). */
export const ASSUMED_LIST_SIZE = PAGE_LIMIT_DEFAULT;

export interface QueryMeasure {
  /** Deepest field nesting (a top-level field is depth 1). */
  depth: number;
  /**
   * Objects the answer may hold: each object-typed field counts 1, times the size of every list above it.
   * A list's size is the `limit` argument of the nearest field above it that has one (the page size), or
   * ASSUMED_LIST_SIZE. Scalars are free: they cost nothing to fetch once their object is there.
   */
  cost: number;
  /** The document asks for `__schema` or `__type`. */
  introspection: boolean;
}

/** Measures one operation; fragments are expanded, variables are read for `limit`. */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): QueryMeasure {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : operation.operation === 'subscription' ? schema.getSubscriptionType() : schema.getQueryType();
  const measure: QueryMeasure = { depth: 0, cost: 0, introspection: false };
  if (!root) return measure;

  const argumentValue = (node: ValueNode): unknown => {
    if (node.kind === 'Variable') return variables[node.name.value];
    if (node.kind === 'IntValue') return Number(node.value);
    return undefined;
  };

  const walk = (selections: SelectionSetNode, type: GraphQLNamedType, depth: number, multiplier: number, pendingSize: number | null, seen: Set<string>): void => {
    for (const selection of selections.selections) {
      if (selection.kind === 'FragmentSpread') {
        const fragment = fragments[selection.name.value];
        if (!fragment || seen.has(fragment.name.value)) continue;
        const target = schema.getType(fragment.typeCondition.name.value) ?? type;
        walk(fragment.selectionSet, target, depth, multiplier, pendingSize, new Set([...seen, fragment.name.value]));
        continue;
      }
      if (selection.kind === 'InlineFragment') {
        const target = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? type) : type;
        walk(selection.selectionSet, target, depth, multiplier, pendingSize, seen);
        continue;
      }
      const name = selection.name.value;
      if (name === '__schema' || name === '__type') {
        // Admins only (below), and then not counted: GraphiQL's introspection query is deep by nature.
        measure.introspection = true;
        continue;
      }
      measure.depth = Math.max(measure.depth, depth);
      if (!selection.selectionSet) continue;

      const field: GraphQLField<unknown, unknown> | undefined =
        isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
      const limitArg = selection.arguments?.find((a) => a.name.value === 'limit');
      const limit = limitArg ? argumentValue(limitArg.value) : undefined;
      let size = typeof limit === 'number' && limit > 0 ? limit : field?.args.some((a) => a.name === 'limit') ? PAGE_LIMIT_DEFAULT : pendingSize;
      let own = multiplier;
      if (field && isListType(getNullableType(field.type))) {
        own = multiplier * (size ?? ASSUMED_LIST_SIZE);
        size = null;
      }
      measure.cost += own;
      const next = field ? getNamedType(field.type) : type;
      walk(selection.selectionSet, next, depth + 1, own, size, seen);
    }
  };
  walk(operation.selectionSet, root, 1, 1, null, new Set());
  return measure;
}

/** Stops a request before it runs: the error carries the catalogue's code and status. */
function refuse(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, { originalError: error, extensions: { code: error.code, http: { status: error.status } } });
}

/**
 * Depth and cost limits for every caller, and introspection for admins only (sellers and the public are
 * refused; GraphiQL's schema explorer works with an admin token). Measured once the operation is known,
 * so `limit` variables count.
 */
export function queryGuards(limits: QueryLimits): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
          const measure = measureOperation(schema, operation, fragments, request.variables ?? {});
          if (measure.introspection && contextValue.actor.kind !== 'admin') throw refuse(domainError('INTROSPECTION_NOT_ALLOWED'));
          if (measure.depth > limits.maxDepth) throw refuse(domainError('QUERY_TOO_DEEP', measure.depth, limits.maxDepth));
          if (measure.cost > limits.maxCost) throw refuse(domainError('QUERY_TOO_COSTLY', measure.cost, limits.maxCost));
        },
      };
    },
  };
}
