import DOCUMENT from '../../schema/operations/seller-dashboard.graphql';
import { inDollars } from './format';

/**
 * Runs an operation of schema/operations/seller-dashboard.graphql. The whole document is sent byte for byte
 * (the server allow-lists SignUp and SignIn without a session by that exact text), with the session's CSRF
 * token from the readable __Host-hcp_csrf cookie (hcp_csrf under SESSION_COOKIES_INSECURE=1; the httpOnly session
 * cookie goes along by itself).
 */
export class DashboardError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

const UNREACHABLE = 'We could not reach the service. Check your connection and try again.';
const GENERIC = 'Something went wrong on our side. Please try again in a moment.';
/** Codes whose message is not for people (a bad document or a fault): a plain sentence instead. */
const NOT_FOR_PEOPLE = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_USER_INPUT', 'INTERNAL_SERVER_ERROR', 'INTERNAL_ERROR', 'OPERATION_NOT_ALLOWED']);

/** Set in this tab once it has had a session: only then does a missing session mean "ended" (not a first visit). */
const SESSION_SEEN = 'hcp:session-seen';

export function csrfToken(): string {
  const match = /(?:^|;\s*)(?:__Host-)?hcp_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : '';
}

export async function run<T>(operationName: string, variables: Record<string, unknown> = {}): Promise<T> {
  // Whether this tab had a session: an ended session clears its cookies in the answer, so it is noted before asking.
  if (csrfToken() !== '') sessionStorage.setItem(SESSION_SEEN, '1');
  const hadSession = sessionStorage.getItem(SESSION_SEEN) === '1';
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
      body: JSON.stringify({ query: DOCUMENT, operationName, variables }),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new DashboardError('NETWORK', UNREACHABLE);
  }
  const body = (await response.json().catch(() => null)) as { data?: T | null; errors?: { message?: string; extensions?: { code?: string } }[] } | null;
  const error = body?.errors?.[0];
  if (error) {
    const code = error.extensions?.code ?? 'UNKNOWN';
    if (code === 'OPERATION_NOT_ALLOWED' || code === 'SESSION_REQUIRED' || code === 'CSRF_TOKEN_INVALID') {
      // Whichever screen or form asked, the app sends the person to sign in (src main.ts listens).
      window.dispatchEvent(new CustomEvent('dashboard:signed-out', { detail: { ended: hadSession } }));
      throw new DashboardError('SIGNED_OUT', 'Your session has ended. Please sign in again.');
    }
    throw new DashboardError(code, NOT_FOR_PEOPLE.has(code) || !error.message ? GENERIC : inDollars(error.message));
  }
  if (!response.ok || !body?.data) throw new DashboardError('UNAVAILABLE', GENERIC);
  return body.data;
}
