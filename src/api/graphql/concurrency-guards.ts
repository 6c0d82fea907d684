import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { locals } from '../../platform/http/request-context';
import type { GraphQLContext } from './context';

/**
 * At most `max` of one API key's /graphql requests run at once in this process; the key's others wait their turn
 * (first come, first served; the key's rate limit bounds the queue). Node has one thread: a seller's burst of heavy
 * documents would otherwise take turns on it with every other shop's requests and stretch their answers by seconds.
 * Admins and the public (fixed checkout documents) are not queued.
 */
export function graphqlRequestsPerKey(max: number) {
  const keys = new Map<string, { running: number; waiting: (() => void)[] }>();
  const release = (key: string) => {
    const state = keys.get(key)!;
    const nextInLine = state.waiting.shift();
    if (nextInLine) return nextInLine();
    state.running -= 1;
    if (state.running === 0) keys.delete(key);
  };
  return (_req: Request, res: Response, next: NextFunction) => {
    const key = locals(res).rateLimitKey;
    if (!key) return next();
    const state = keys.get(key) ?? { running: 0, waiting: [] };
    keys.set(key, state);
    const start = () => {
      // 'close' comes once for every request, answered or abandoned: the turn is always handed on.
      res.once('close', () => release(key));
      next();
    };
    if (state.running < max) {
      state.running += 1;
      start();
    } else {
      state.waiting.push(start);
    }
  };
}

const turns = new WeakMap<object, Promise<unknown>>();

/**
 * The root fields of a seller's query run one after another, as a mutation's always do (GraphQL allows either
 * for queries; the answer is the same): one document of twenty aliased lists then holds one database
 * connection, not twenty, and cannot queue the pool ahead of other shops. Admins keep parallel fields.
 */
export function rootQueryFieldsInTurn(schema: GraphQLSchema): void {
  const fields = schema.getQueryType()?.getFields() ?? {};
  for (const field of Object.values(fields)) {
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: GraphQLContext, info) => {
      if (context.actor.kind === 'admin') return resolve(source, args, context, info);
      const result = (turns.get(context) ?? Promise.resolve()).then(() => resolve(source, args, context, info));
      turns.set(context, result.catch(() => undefined));
      return result;
    };
  }
}
