import type { Request, Response } from 'express';
import { KNOWN_DEVICE_DAYS } from '../../shared/limits';
import { cookieValue, HOST_PREFIX, type CookieMode } from './session-cookies';

/**
 * The known-device cookie (docs/dashboard.md, "Lockout"): a random token naming this browser as one that
 * signed in before, so strangers' failed sign-ins do not lock it out. `__Host-` prefixed, `Secure`, `HttpOnly`
 * (no script reads it), `SameSite=Strict`, `Path=/`, kept KNOWN_DEVICE_DAYS and renewed by each sign-in.
 * Under SESSION_COOKIES_INSECURE (plain-http development) it is named and flagged as the session cookies are.
 */
export const DEVICE_COOKIE = `${HOST_PREFIX}hcp_device`;

function deviceCookieName(mode: CookieMode): string {
  return mode === 'secure' ? DEVICE_COOKIE : DEVICE_COOKIE.slice(HOST_PREFIX.length);
}

/** The known-device token the browser sent, if any. */
export function deviceTokenOf(req: Request, mode: CookieMode): string | undefined {
  return cookieValue(req, deviceCookieName(mode));
}

/** Sets the browser's (new) known-device token on this answer. */
export function setDeviceCookie(res: Response, mode: CookieMode, token: string): void {
  res.cookie(deviceCookieName(mode), token, {
    httpOnly: true,
    secure: mode === 'secure',
    sameSite: 'strict',
    path: '/',
    maxAge: KNOWN_DEVICE_DAYS * 86_400_000,
  });
}
