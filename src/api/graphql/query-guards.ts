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
import { rateLimitHeaders, type RateLimits } from '../http/authenticate';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { DomainError, domainError } from '../../shared/errors';
import type { GraphQLContext } from './context';
import { PAGE_LIMIT_DEFAULT } from '../../shared/limits';
import { eachField, rootTypeOf } from './selections';
import { refusedTextArgument } from './text-inputs';

/** Limits on what one document sent to /graphql may ask for (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST, GRAPHQL_MAX_ALIASES). */
export interface QueryLimits {
  maxDepth: number;
  maxCost: number;
  /** Aliased fields one document may hold, admins' aside (GRAPHQL_MAX_ALIASES). */
  maxAliases: number;
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
  /** Aliased fields, fragments expanded: the way one document asks for the same work many times. */
  aliases: number;
  /** Root fields that run (distinct response keys; `__typename` aside): for a mutation, the writes it makes. */
  rootFields: number;
}

/** Measures one operation; fragments are expanded, variables are read for `limit`. */
export function measureOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): QueryMeasure {
  const root = rootTypeOf(schema, operation);
  const measure: QueryMeasure = { depth: 0, cost: 0, introspection: false, aliases: 0, rootFields: 0 };
  if (!root) return measure;
  const rootKeys = new Set<string>();

  const argumentValue = (node: ValueNode): unknown => {
    if (node.kind === 'Variable') return variables[node.name.value];
    if (node.kind === 'IntValue') return Number(node.value);
    return undefined;
  };

  // `visited` spans one field's selection set, fragments included (eachField): a fragment spread twice there runs once.
  const walk = (selections: SelectionSetNode, type: GraphQLNamedType, depth: number, multiplier: number, pendingSize: number | null, visited: Set<string>): void =>
    eachField(schema, fragments, selections, type, visited, (selection, on) => {
      const name = selection.name.value;
      if (name === '__schema' || name === '__type') {
        // Admins only (below), and then not counted: GraphiQL's introspection query is deep by nature.
        measure.introspection = true;
        return;
      }
      if (selection.alias) measure.aliases += 1;
      if (depth === 1 && name !== '__typename') rootKeys.add(selection.alias?.value ?? name);
      measure.depth = Math.max(measure.depth, depth);
      if (!selection.selectionSet) return;

      const field: GraphQLField<unknown, unknown> | undefined =
        isObjectType(on) || isInterfaceType(on) ? on.getFields()[name] : undefined;
      const limitArg = selection.arguments?.find((a) => a.name.value === 'limit');
      const limit = limitArg ? argumentValue(limitArg.value) : undefined;
      let size = typeof limit === 'number' && limit > 0 ? limit : field?.args.some((a) => a.name === 'limit') ? PAGE_LIMIT_DEFAULT : pendingSize;
      let own = multiplier;
      if (field && isListType(getNullableType(field.type))) {
        own = multiplier * (size ?? ASSUMED_LIST_SIZE);
        size = null;
      }
      measure.cost += own;
      const next = field ? getNamedType(field.type) : on;
      walk(selection.selectionSet, next, depth + 1, own, size, new Set());
    });
  walk(operation.selectionSet, root, 1, 1, null, new Set());
  measure.rootFields = rootKeys.size;
  return measure;
}

/** Stops a request before it runs: the error carries the catalogue's code and status. */
function refuse(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, { originalError: error, extensions: { code: error.code, http: { status: error.status } } });
}

/**
 * Text arguments free of control characters (text-inputs.ts); depth and cost limits for every caller; for everyone but admins, a limit on aliases (the way one document
 * repeats the same work); for a seller's key, a cost budget per minute and its mutations counted once per root
 * field against its request budget.
 * Introspection for admins only (sellers and the public are refused; GraphiQL's schema explorer works with an
 * admin token). Measured once the operation is known, so `limit` variables count. One hook, because Apollo
 * runs the plugins' hooks at once: a document refused for its shape must not be charged.
 */
export function queryGuards(limits: QueryLimits, budgets: Pick<RateLimits, 'perApiKey' | 'graphqlCostPerApiKey'>): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue, response }) {
          if (!operation) return;
          const fragments: Record<string, FragmentDefinitionNode> = {};
          for (const d of document.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
          const badText = refusedTextArgument(schema, operation, fragments, request.variables ?? {});
          if (badText) throw refuse(domainError('TEXT_INPUT_INVALID', badText));
          const measure = measureOperation(schema, operation, fragments, request.variables ?? {});
          const admin = contextValue.actor.kind === 'admin';
          if (measure.introspection && !admin) throw refuse(domainError('INTROSPECTION_NOT_ALLOWED'));
          if (measure.depth > limits.maxDepth) throw refuse(domainError('QUERY_TOO_DEEP', measure.depth, limits.maxDepth));
          if (measure.cost > limits.maxCost) throw refuse(domainError('QUERY_TOO_COSTLY', measure.cost, limits.maxCost));
          if (measure.aliases > limits.maxAliases && !admin) throw refuse(domainError('QUERY_TOO_MANY_ALIASES', measure.aliases, limits.maxAliases));
          const key = contextValue.rateLimitKey;
          if (!key) return;
          const spender = contextValue.actor.kind === 'session' ? 'dashboard' : 'key';
          await chargeCost(budgets.graphqlCostPerApiKey, { key, spender }, measure.cost, response.http.headers);
          if (operation.operation === 'mutation') await chargeRootMutations(budgets.perApiKey, key, measure.rootFields, response.http.headers);
        },
      };
    },
  };
}

/**
 * A seller key, or a seller's dashboard sessions together, spends its documents' cost from a budget per minute
 * (GRAPHQL_COST_PER_MINUTE), as a request count
 * alone cannot tell a `currentShop` from twenty lists of a hundred payments. Node runs every shop's requests on one
 * thread: the budget keeps one seller's heavy documents to a small share of it.
 */
async function chargeCost(costPerApiKey: RateLimiter, budget: { key: string; spender: 'key' | 'dashboard' }, cost: number, headers: Map<string, string>): Promise<void> {
  // A document of scalars only still runs: it costs at least 1, or it would be free however often it is sent.
  const decision = await costPerApiKey.consume(budget.key, Math.max(cost, 1));
  if (decision.allowed) return;
  headers.set('retry-after', String(decision.retryAfterSeconds));
  throw refuse(domainError('QUERY_COST_BUDGET_EXCEEDED', decision.limit, decision.retryAfterSeconds, budget.spender));
}

/**
 * Each root field of a mutation is a write and counts as one request: the HTTP request was counted once when
 * its key was checked, so a mutation of n root fields takes n - 1 more (a REST call runs one, and is counted
 * exactly as before). All or nothing, before anything runs: when the budget cannot hold them all, nothing is
 * written and the answer is the usual 429 with Retry-After.
 */
async function chargeRootMutations(perApiKey: RateLimiter, key: string, rootFields: number, headers: Map<string, string>): Promise<void> {
  if (rootFields <= 1) return;
  const decision = await perApiKey.consume(key, rootFields - 1);
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) headers.set(name.toLowerCase(), value);
  if (decision.allowed) return;
  headers.set('retry-after', String(decision.retryAfterSeconds));
  throw refuse(domainError('RATE_LIMITED', decision.retryAfterSeconds));
}
