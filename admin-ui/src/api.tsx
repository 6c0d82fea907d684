import { operationSource } from './operations';
import { authHeaders, type ConsoleAuth } from './sign-in';

/** A refusal or failure, in the words of the server's error catalogue (never the raw answer). */
export class OperationError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'OperationError';
  }
}

interface Answer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** Told when the server no longer takes the credential (expired, revoked, signed out elsewhere). */
let onSignedOut: ((message: string) => void) | null = null;
export function whenSignedOut(listener: ((message: string) => void) | null): void {
  onSignedOut = listener;
}

/**
 * Runs one named operation of admin-console.graphql with the admin's credential, and answers its data. A GraphQL
 * error is thrown as an OperationError carrying the first error's message (the catalogue's words) and code.
 */
export async function runOperation<T>(auth: ConsoleAuth, operationName: string, variables: Record<string, unknown> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...authHeaders(auth) },
      body: JSON.stringify({ query: operationSource(operationName), operationName, variables }),
    });
  } catch {
    throw new OperationError('The server could not be reached. Check the connection and try again.', 'NETWORK');
  }
  const answer = (await res.json().catch(() => null)) as Answer<T> | null;
  if (!answer) throw new OperationError(`The server answered ${res.status} without an explanation. Try again in a moment.`, null);
  const first = answer.errors?.[0];
  if (first) {
    const code = first.extensions?.code ?? null;
    if (code === 'UNAUTHENTICATED' || code === 'SESSION_REQUIRED') onSignedOut?.('Your sign-in has ended (it expired or was revoked). Sign in again to go on.');
    throw new OperationError(first.message, code);
  }
  if (!answer.data) throw new OperationError(`The server answered ${res.status} without data. Try again in a moment.`, null);
  return answer.data;
}
