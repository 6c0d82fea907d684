import type request from 'supertest';
import { dashboard, STRONG_PASSWORD, newEmail } from './dashboard-client';

/**
 * One browser's cookies, as it keeps them: every Set-Cookie of each answer it was given (a cleared cookie goes),
 * sent back in one Cookie header. Names are matched as set, `__Host-` prefix or not.
 */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Keeps the cookies this answer sets; answers the answer. */
  take<T extends request.Response>(res: T): T {
    for (const header of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const [pair, ...attributes] = header.split(';');
      const [name, ...value] = pair.trim().split('=');
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value.join('=') === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return res;
  }

  /** The value of the cookie whose name ends with `name` (`hcp_device` finds `__Host-hcp_device`). */
  value(name: string): string | undefined {
    for (const [key, value] of this.cookies) if (key === name || key === `__Host-${name}`) return value;
    return undefined;
  }

  /** The Set-Cookie header of `name` in this answer, attributes included. */
  static setCookie(res: request.Response, name: string): string | undefined {
    return ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`) || c.startsWith(`__Host-${name}=`));
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A browser signed in to the dashboard: its cookie jar and the CSRF token the page would send. */
export interface Browser {
  jar: CookieJar;
  csrfToken: string;
}

/** The session a request of `browser` carries: every cookie it holds, and its CSRF token. */
export const sessionOf = (browser: Browser) => ({ cookie: browser.jar.header(), csrfToken: browser.csrfToken });

/** Signs up a new seller in a new browser. */
export async function signUpInBrowser(baseUrl: string, email = newEmail(), password = STRONG_PASSWORD) {
  const jar = new CookieJar();
  const res = jar.take(await dashboard(baseUrl, 'SignUp', { input: { email, password, shopName: 'Standing Shop' } }));
  const answer = res.body.data?.signUp;
  if (!answer) throw new Error(`sign-up failed: ${JSON.stringify(res.body)}`);
  return {
    email,
    password,
    apiKey: answer.apiKey as string,
    webhookSecret: answer.webhookSecret as string,
    shopId: answer.shop.id as string,
    sellerId: answer.seller.id as string,
    browser: { jar, csrfToken: answer.csrfToken as string } as Browser,
  };
}

/** Signs in from `jar` (a new browser when omitted); answers the raw answer and, on success, the browser. */
export async function signInFrom(baseUrl: string, email: string, password: string, jar = new CookieJar(), code?: string) {
  const res = jar.take(await dashboard(baseUrl, 'SignIn', { email, password, ...(code ? { code } : {}) }, { cookie: jar.header() || undefined }));
  const csrfToken = res.body.data?.signIn?.csrfToken as string | undefined;
  return { res, browser: csrfToken ? ({ jar, csrfToken } as Browser) : null };
}
