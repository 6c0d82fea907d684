import type { Request, Response } from 'express';

/** The httpOnly cookie naming the dashboard session. */
export const SESSION_COOKIE = 'hcp_session';
/** The CSRF token, readable by the dashboard's script, which echoes it in X-CSRF-Token (docs/dashboard.md). */
export const CSRF_COOKIE = 'hcp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** Sets or clears the dashboard's cookies on this answer. */
export interface SessionCookies {
  start(sessionToken: string, csrfToken: string): void;
  clear(): void;
}

/**
 * `SameSite=Strict` (no cross-site request carries them), `Path=/`, `Secure` when BASE_URL is https. No
 * Max-Age: the server ends sessions (idle and absolute timeouts), and a browser restart ends the cookie.
 */
export function sessionCookies(res: Response, baseUrl: string): SessionCookies {
  const options = { sameSite: 'strict', secure: baseUrl.startsWith('https:'), path: '/' } as const;
  return {
    start(sessionToken, csrfToken) {
      res.cookie(SESSION_COOKIE, sessionToken, { ...options, httpOnly: true });
      res.cookie(CSRF_COOKIE, csrfToken, { ...options, httpOnly: false });
    },
    clear() {
      res.clearCookie(SESSION_COOKIE, { ...options, httpOnly: true });
      res.clearCookie(CSRF_COOKIE, options);
    },
  };
}

/** The session token in the Cookie header, if any (no cookie-parser: this is the only cookie we read). */
export function sessionTokenOf(req: Request): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}
