import path from 'node:path';
import express, { type Response } from 'express';
import { CHECKOUT_CSP } from '../checkout/web';
import { IMMUTABLE, NO_STORE, pageSecurityHeaders, readAssets, readStaticFile, sendStatic, type StaticFile } from '../../platform/http/static-page';
import { PROJECT_ROOT } from '../../shared/project-root';

/** The checkout page's policy: our own script and style sheet, and /graphql; nothing else (docs/dashboard.md, "CSP"). */
export const DASHBOARD_CSP = CHECKOUT_CSP;

interface BuiltDashboard {
  index: StaticFile;
  assets: Map<string, StaticFile>;
}

/**
 * The seller dashboard (docs/dashboard.md): every GET under /dashboard answers the one page shell, which
 * reads its screen from the address; /dashboard/assets/<name> its script and style sheet. The shell holds
 * nothing of the seller: each screen asks /graphql with the session cookie and the CSRF header. Only GET is
 * routed here, so a form POSTed at a dashboard address reaches no handler (404).
 */
export function dashboardRouter(directory = path.join(PROJECT_ROOT, 'dist/dashboard-ui')): express.Router {
  let built: BuiltDashboard | undefined;
  // Read on first use, so a service started without the dashboard built still serves everything else.
  const files = (res: Response): BuiltDashboard | null => {
    try {
      return (built ??= { index: readStaticFile(path.join(directory, 'index.html')), assets: readAssets(directory) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      pageSecurityHeaders(res, DASHBOARD_CSP);
      res.status(503).setHeader('Cache-Control', NO_STORE);
      res.type('text/plain').send('The dashboard is not built: run `npm run build`.');
      return null;
    }
  };
  const router = express.Router();

  router.get('/dashboard/assets/:name', (req, res) => {
    const page = files(res);
    if (!page) return;
    const asset = page.assets.get(req.params.name);
    if (asset) return sendStatic(req, res, 200, asset, IMMUTABLE, DASHBOARD_CSP);
    pageSecurityHeaders(res, DASHBOARD_CSP);
    res.status(404).setHeader('Cache-Control', NO_STORE);
    res.type('text/plain').send('Not found');
  });

  router.get(['/dashboard', '/dashboard/{*screen}'], (req, res) => {
    const page = files(res);
    if (page) sendStatic(req, res, 200, page.index, NO_STORE, DASHBOARD_CSP);
  });
  return router;
}
