import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SESSION_COOKIE } from '../../src/platform/http/session-cookies';

/** The dashboard's operations, sent as the page sends them: the whole document and an operation name. */
export const DASHBOARD_DOCUMENT = fs.readFileSync(path.join(__dirname, '../../schema/operations/seller-dashboard.graphql'), 'utf8');

export const STRONG_PASSWORD = 'violet-tundra-harbour-42';

/** One browser's dashboard session: its session cookie and CSRF token. */
export interface DashboardSession {
  cookie: string;
  csrfToken: string;
}

/** Runs a dashboard operation, with the session's cookie and CSRF header when given. */
export function dashboard(baseUrl: string, operationName: string, variables: object = {}, session?: Partial<DashboardSession>) {
  let req = request(baseUrl).post('/graphql').set('Content-Type', 'application/json');
  if (session?.cookie) req = req.set('Cookie', session.cookie);
  if (session?.csrfToken) req = req.set('X-CSRF-Token', session.csrfToken);
  return req.send({ query: DASHBOARD_DOCUMENT, operationName, variables });
}

/** `__Host-hcp_session=…` from an answer's Set-Cookie, as a browser would send it back. */
export function sessionCookieOf(res: request.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return header.split(';')[0];
}

export const newEmail = () => `dash-${randomBytes(6).toString('hex')}@example.com`;

/** Signs up a new seller; its session, key and credentials. */
export async function signUpSeller(baseUrl: string, email = newEmail(), password = STRONG_PASSWORD) {
  const res = await dashboard(baseUrl, 'SignUp', { input: { email, password, shopName: 'Dashboard Shop' } });
  if (!res.body.data?.signUp) throw new Error(`sign-up failed: ${JSON.stringify(res.body)}`);
  const answer = res.body.data.signUp;
  return { res, email, password, apiKey: answer.apiKey as string, shopId: answer.shop.id as string, sellerId: answer.seller.id as string, session: { cookie: sessionCookieOf(res), csrfToken: answer.csrfToken as string } };
}
