import fs from 'node:fs';
import path from 'node:path';
import { parse, type OperationDefinitionNode } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { locals } from '../../platform/http/request-context';
import { domainError } from '../../shared/errors';
import { PROJECT_ROOT } from '../../shared/project-root';

/** Public operations: the exact document a page sends, and which of its operation names need no credentials. */
export interface PublicOperations {
  document: string;
  names: ReadonlySet<string>;
}

/** Every operation of `file`, or only those named in `only`. */
function loadPublicOperations(file: string, only?: string[]): PublicOperations {
  const document = fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations', file), 'utf8');
  const names = parse(document)
    .definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
    .map((d) => d.name!.value);
  if (only?.some((name) => !names.includes(name))) throw new Error(`${file} lacks one of ${only.join(', ')}`);
  return { document, names: new Set(only ?? names) };
}

/**
 * The checkout page's operations; the dashboard's sign-up, sign-in and the links of its mails (its other
 * operations need a session); the admin console's sign-in and set-up link.
 */
export const PUBLIC_OPERATIONS: readonly PublicOperations[] = [
  loadPublicOperations('checkout.graphql'),
  loadPublicOperations('seller-dashboard.graphql', ['SignUp', 'SignIn', 'AcceptInvitation', 'RequestPasswordReset', 'ResetPassword']),
  loadPublicOperations('admin-sign-in.graphql', ['AdminSignIn', 'AdminSetUp', 'ConfirmAdminSetUp']),
];

/**
 * Callers without credentials may run only the operations listed above,
 * sent as the very documents in schema/operations/ (an allow-list, compared as a string: nothing is parsed
 * per request).
 * Everything else, introspection and batches included, needs a seller key or an admin token.
 */
export function publicOperationsOnly(allowed: readonly PublicOperations[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (locals(res).actor.kind !== 'public') return next();
    next(isPublicOperation(req, allowed) ? undefined : domainError('OPERATION_NOT_ALLOWED'));
  };
}

/** Whether the request is one of the public operations, sent as its exact document. */
export function isPublicOperation(req: Request, allowed: readonly PublicOperations[] = PUBLIC_OPERATIONS): boolean {
  const request = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | unknown[] | undefined;
  return (
    typeof request === 'object' && request !== null && !Array.isArray(request) &&
    typeof request.operationName === 'string' &&
    allowed.some((list) => request.query === list.document && list.names.has(request.operationName as string))
  );
}
