import type { Request, Response } from 'express';

/** The httpOnly cookie naming the dashboard session. */
export const SESSION_COOKIE = 'hcp_session';
/** The CSRF token, readable by the dashboard's script, which echoes it in X-CSRF-Token (docs/dashboard.md). */
export const CSRF_COOKIE = 'hcp_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** The admin console's session (docs/admin.md): other names, the same flags and the same CSRF header. */
export const ADMIN_SESSION_COOKIE = 'hcp_admin_session';
export const ADMIN_CSRF_COOKIE = 'hcp_admin_csrf';
const NAMES = { seller: [SESSION_COOKIE, CSRF_COOKIE], admin: [ADMIN_SESSION_COOKIE, ADMIN_CSRF_COOKIE] } as const;

/** Sets or clears the dashboard's cookies on this answer. */
export interface SessionCookies {
  start(sessionToken: string, csrfToken: string): void;
  clear(): void;
}

/**
 * `SameSite=Strict` (no cross-site request carries them), `Path=/`, `Secure` when BASE_URL is https. No
 * Max-Age: the server ends sessions (idle and absolute timeouts), and a browser restart ends the cookie.
 */
export function sessionCookies(res: Response, baseUrl: string, kind: 'seller' | 'admin' = 'seller'): SessionCookies {
  const options = { sameSite: 'strict', secure: baseUrl.startsWith('https:'), path: '/' } as const;
  const [session, csrf] = NAMES[kind];
  return {
    start(sessionToken, csrfToken) {
      res.cookie(session, sessionToken, { ...options, httpOnly: true });
      res.cookie(csrf, csrfToken, { ...options, httpOnly: false });
    },
    clear() {
      res.clearCookie(session, { ...options, httpOnly: true });
      res.clearCookie(csrf, options);
    },
  };
}

/** The session token in the Cookie header, if any (no cookie-parser: the session cookies are the only ones we read). */
export function sessionTokenOf(req: Request, kind: 'seller' | 'admin' = 'seller'): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === NAMES[kind][0]) return value.join('=') || undefined;
  }
  return undefined;
}
