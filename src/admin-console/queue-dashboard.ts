import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bull';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { adminForToken } from '../admins/admin.service';
import { locals } from '../http/request-context';
import { PROJECT_ROOT } from '../shared/project-root';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * Bull Board over this service's bull queues (webhook deliveries, refunds), for admins only. A browser
 * cannot send a bearer header on navigation, so the admin token is also accepted as the password of HTTP
 * Basic authentication (any user name); the browser asks for it.
 */
export function queueDashboardRouter(queues: Queue[], views = path.join(PROJECT_ROOT, 'dist/admin-console/queue-views')): express.Router {
  const adapter = new ExpressAdapter();
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((queue) => new BullAdapter(queue, { readOnlyMode: false })), serverAdapter: adapter });
  adapter.setViewsPath(views); // Bull Board's page without its web-font link (built by src/admin-console/build.mjs)
  const router = express.Router();
  router.use(QUEUE_DASHBOARD_PATH, requireAdmin, relaxedContentSecurityPolicy, adapter.getRouter());
  return router;
}

async function requireAdmin(req: Request, res: Response, next: NextFunction) {
  const token = adminTokenOf(req.get('authorization'));
  const admin = token ? await adminForToken(locals(res).em, token).catch(() => null) : null;
  if (admin) return next();
  res.setHeader('WWW-Authenticate', 'Basic realm="admin queues", charset="UTF-8"');
  res.status(401).json({ success: false, error: 'Authentication required' });
}

function adminTokenOf(authorization: string | undefined): string | null {
  const bearer = /^Bearer +(\S+)$/i.exec(authorization ?? '');
  if (bearer) return bearer[1];
  const basic = /^Basic +(\S+)$/i.exec(authorization ?? '');
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) || null;
}

/** Bull Board's page runs an inline bootstrap script; this path (admins only) allows it, nothing external. */
function relaxedContentSecurityPolicy(_req: Request, res: Response, next: NextFunction) {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'",
  );
  next();
}
