import type { Request, Response } from 'express';

/**
 * How the session and CSRF cookies are named and flagged. `secure` (the default): every cookie is named
 * `__Host-…`, so a browser keeps it only when it is `Secure`, `Path=/` and without `Domain`: a sibling
 * subdomain or a man in the middle on plain http cannot plant or overwrite it (cookie tossing). Browsers
 * accept such cookies from https, and from http://localhost and 127.0.0.1 (trustworthy origins).
 * `insecure-http` (SESSION_COOKIES_INSECURE=1, local development over plain http on another host): the
 * names without the prefix, and no `Secure`.
 */
export type CookieMode = 'secure' | 'insecure-http';

export const HOST_PREFIX = '__Host-';
/** The httpOnly cookie naming the dashboard session. */
export const SESSION_COOKIE = `${HOST_PREFIX}hcp_session`;
/** The CSRF token, readable by the dashboard's script, which echoes it in X-CSRF-Token (docs/dashboard.md). */
export const CSRF_COOKIE = `${HOST_PREFIX}hcp_csrf`;
export const CSRF_HEADER = 'x-csrf-token';
/** The admin console's session (docs/admin.md): other names, the same flags and the same CSRF header. */
export const ADMIN_SESSION_COOKIE = `${HOST_PREFIX}hcp_admin_session`;
export const ADMIN_CSRF_COOKIE = `${HOST_PREFIX}hcp_admin_csrf`;
const NAMES = { seller: [SESSION_COOKIE, CSRF_COOKIE], admin: [ADMIN_SESSION_COOKIE, ADMIN_CSRF_COOKIE] } as const;

/** The [session, CSRF] cookie names of `kind` under `mode`. */
export function cookieNames(kind: 'seller' | 'admin', mode: CookieMode = 'secure'): [string, string] {
  const [session, csrf] = NAMES[kind];
  return mode === 'secure' ? [session, csrf] : [session.slice(HOST_PREFIX.length), csrf.slice(HOST_PREFIX.length)];
}

/** Sets or clears the dashboard's cookies on this answer. */
export interface SessionCookies {
  start(sessionToken: string, csrfToken: string): void;
  clear(): void;
}

/**
 * `SameSite=Strict` (no cross-site request carries them), `Path=/`, `Secure` and the `__Host-` prefix
 * unless `mode` is `insecure-http`. No Max-Age: the server ends sessions (idle and absolute timeouts), and
 * a browser restart ends the cookie.
 */
export function sessionCookies(res: Response, mode: CookieMode, kind: 'seller' | 'admin' = 'seller'): SessionCookies {
  const options = { sameSite: 'strict', secure: mode === 'secure', path: '/' } as const;
  const [session, csrf] = cookieNames(kind, mode);
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

/** The value of the cookie `name` in the Cookie header, if any (no cookie-parser: the session cookies are the only ones we read). */
export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** The session token in the Cookie header, if any. */
export function sessionTokenOf(req: Request, kind: 'seller' | 'admin' = 'seller', mode: CookieMode = 'secure'): string | undefined {
  return cookieValue(req, cookieNames(kind, mode)[0]);
}
