import type * as BullBoard from '@bull-board/api';
import type * as BullBoardAdapter from '@bull-board/api/bullAdapter';
import type * as BullBoardExpress from '@bull-board/express';
import type { Queue } from 'bull';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { csrfTokenFor, liveAdminSession, type SessionSettings } from '../identity';
import { Admin, AdminRole } from '../admins';
import { recordAudit, recordRefusal } from '../audit';
import { locals } from '../../platform/http/request-context';
import { sessionTokenOf, type CookieMode } from '../../platform/http/session-cookies';
import { sendError } from '../../platform/http/envelope';
import { domainError } from '../../shared/errors';
import { PROJECT_ROOT } from '../../shared/project-root';
import { digestsEqual } from '../../shared/secrets';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The cookie Bull Board's page reads its CSRF token from: its API client (axios) sends a same-origin cookie of
 * this name back as the X-XSRF-TOKEN header on every request. It holds the admin session's CSRF token (the one
 * the console sends as X-CSRF-Token), scoped to this path; it grants nothing by itself, since the server
 * compares the header with the token derived from the httpOnly session cookie.
 */
export const QUEUE_CSRF_COOKIE = 'XSRF-TOKEN';
const QUEUE_CSRF_HEADERS = ['x-xsrf-token', 'x-csrf-token'];

export interface QueueDashboardSettings {
  /** The admin session's timeouts (the dashboard's SESSION_IDLE_TIMEOUT_MS and SESSION_ABSOLUTE_TIMEOUT_MS). */
  sessions: SessionSettings;
  /** SESSION_COOKIES_INSECURE: the session cookie's name, and whether the CSRF cookie is Secure. */
  cookies: CookieMode;
  /** BASE_URL: its origin is accepted in Origin besides the request's own host (a proxy that rewrites Host). */
  baseUrl: string;
}

/**
 * Bull Board over this service's bull queues (webhook deliveries, refunds), for an admin signed in at /admin
 * (docs/admin.md, "The queue dashboard"): the admin console's session cookie, with its sign-in lockout and
 * per-client attempt limit, instead of a password prompt anyone could guess at. Every role reads; only owners
 * change anything (retry, clean, remove, pause, empty …), each change audited before it is made, and support and
 * finance get a board without those buttons. A change must carry the session's CSRF token and come from this
 * site (docs/operations.md, "Security settings").
 */
export function queueDashboardRouter(queues: Queue[], settings: QueueDashboardSettings, views = path.join(PROJECT_ROOT, 'dist/admin-console/queue-views')): express.Router {
  const router = express.Router();
  const forOwners = builtOnFirstUse(() => bullBoard(queues, views, false));
  const readOnly = builtOnFirstUse(() => bullBoard(queues, views, true));
  router.use(QUEUE_DASHBOARD_PATH, requireAdminSession(settings), refuseCrossSite(settings), changesByOwnersAudited, relaxedContentSecurityPolicy, (req, res, next) =>
    (queueAdminOf(res).role === AdminRole.OWNER ? forOwners : readOnly)(req, res, next),
  );
  return router;
}

const queueAdminOf = (res: Response): Admin => res.locals.queueAdmin as Admin;

/**
 * A change by an owner is written to the audit log first (`queue.changed`: the request, the queue) and made only
 * once the entry is committed: Redis and PostgreSQL share no transaction, and an entry for a change that then
 * failed is better than a change without one. Anyone else's change is refused (FORBIDDEN) and the refusal audited.
 */
async function changesByOwnersAudited(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method)) return next();
  try {
    const admin = queueAdminOf(res);
    const em = locals(res).em;
    const record = { targetType: 'queue' as const, targetId: /^\/api\/queues\/([^/]+)\/./.exec(req.path)?.[1] ?? 'all', details: { request: `${req.method} ${req.path}` } };
    if (admin.role !== AdminRole.OWNER) {
      await recordRefusal(em, admin, { ...record, action: 'queue.change.refused', details: { ...record.details, code: 'FORBIDDEN' } });
      return sendError(res, domainError('FORBIDDEN'));
    }
    const own = em.fork({ clear: true });
    recordAudit(own, admin, { ...record, action: 'queue.changed' });
    await own.flush();
    next();
  } catch (error) {
    next(error);
  }
}

/** Bull Board's own router. Its packages take about a third of a second to load: only an admin's first visit pays it. */
function bullBoard(queues: Queue[], views: string, readOnlyMode: boolean): express.Router {
  const { createBullBoard } = require('@bull-board/api') as typeof BullBoard;
  const { BullAdapter } = require('@bull-board/api/bullAdapter') as typeof BullBoardAdapter;
  const { ExpressAdapter } = require('@bull-board/express') as typeof BullBoardExpress;
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullAdapter(queue, { readOnlyMode })), serverAdapter: adapter });
  adapter.setViewsPath(views); // Bull Board's page without its web-font link (built by admin-ui/build.mjs)
  return adapter.getRouter() as express.Router;
}

function builtOnFirstUse(build: () => express.Router): express.RequestHandler {
  let built: express.Router | undefined;
  return (req, res, next) => {
    built ??= build();
    built(req, res, next);
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What an HTML form can send cross-site without a preflight (text/plain included), body or not. */
const FORM_TYPES = /^\s*(text\/|application\/x-www-form-urlencoded|multipart\/form-data)/i;

/** The admin of a live console session, or: a page request goes to /admin to sign in, anything else is 401. */
function requireAdminSession(settings: QueueDashboardSettings) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const token = sessionTokenOf(req, 'admin', settings.cookies);
      const em = locals(res).em;
      const live = token ? await liveAdminSession(em, token, settings.sessions) : null;
      const admin = live && (await em.findOne(Admin, { id: live.adminId }));
      if (!token || !admin || admin.revokedAt) {
        if (req.method === 'GET' && req.accepts(['json', 'html']) === 'html') return res.redirect(303, '/admin');
        return sendError(res, domainError('UNAUTHENTICATED'));
      }
      res.locals.queueSessionToken = token;
      admin.actingWith = { kind: 'session', id: live.sessionId, issuedBy: admin.id };
      res.locals.queueAdmin = admin;
      if (req.method === 'GET') {
        res.cookie(QUEUE_CSRF_COOKIE, csrfTokenFor(token), { path: QUEUE_DASHBOARD_PATH, sameSite: 'strict', secure: settings.cookies === 'secure', httpOnly: false });
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * A change is refused unless it carries the session's CSRF token (X-XSRF-TOKEN as Bull Board sends it, or
 * X-CSRF-Token as the console does), comes from this site (Sec-Fetch-Site and Origin, when the browser sends
 * them), and is not a body a cross-site HTML form could send (text/plain, form encodings).
 */
function refuseCrossSite(settings: QueueDashboardSettings) {
  const ownOrigin = new URL(settings.baseUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const refuse = () => sendError(res, domainError('CROSS_SITE_REQUEST_REFUSED'));
    const fetchSite = req.get('sec-fetch-site');
    if (fetchSite !== undefined && fetchSite !== 'same-origin') return refuse();
    const origin = req.get('origin');
    if (origin !== undefined && origin !== ownOrigin && !sameHost(origin, req.get('host'))) return refuse();
    if (FORM_TYPES.test(req.get('content-type') ?? '')) return refuse();
    const expected = csrfTokenFor(String(res.locals.queueSessionToken));
    if (!QUEUE_CSRF_HEADERS.some((name) => digestsEqual(String(req.get(name) ?? ''), expected))) return refuse();
    next();
  };
}

function sameHost(origin: string, host: string | undefined): boolean {
  return URL.canParse(origin) && host !== undefined && new URL(origin).host === host;
}

/** Bull Board's page runs an inline bootstrap script; this path (admins only) allows it, nothing external. */
function relaxedContentSecurityPolicy(_req: Request, res: Response, next: NextFunction) {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'",
  );
  next();
}
