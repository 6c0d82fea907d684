import fs from 'node:fs';
import path from 'node:path';
import { parse, type OperationDefinitionNode } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { locals } from '../http/request-context';
import { domainError } from '../shared/errors';
import { PROJECT_ROOT } from '../shared/project-root';

/** The public checkout operations: the exact document the checkout page sends, and its operation names. */
export interface PublicOperations {
  document: string;
  names: ReadonlySet<string>;
}

function loadPublicOperations(): PublicOperations {
  const document = fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations/checkout.graphql'), 'utf8');
  const names = parse(document)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
    .map((d) => d.name!.value);
  return { document, names: new Set(names) };
}

export const PUBLIC_OPERATIONS = loadPublicOperations();

/**
 * Callers without credentials may run only the checkout operations, sent as the very document in
 * schema/operations/checkout.graphql (an allow-list, compared as a string: nothing is parsed per request).
 * Everything else, introspection and batches included, needs a seller key or an admin token.
 */
export function publicOperationsOnly(allowed: PublicOperations) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (locals(res).actor.kind !== 'public') return next();
    const request = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | unknown[] | undefined;
    const ok =
      typeof request === 'object' && request !== null && !Array.isArray(request) &&
      request.query === allowed.document &&
      typeof request.operationName === 'string' && allowed.names.has(request.operationName);
    next(ok ? undefined : domainError('OPERATION_NOT_ALLOWED'));
  };
}
