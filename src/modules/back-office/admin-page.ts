import path from 'node:path';
import express, { type Response } from 'express';
import { IMMUTABLE, NO_STORE, pageSecurityHeaders, readAssets, readStaticFile, sendStatic, type StaticFile } from '../../platform/http/static-page';
import { PROJECT_ROOT } from '../../shared/project-root';

/**
 * As strict as GraphiQL allows: only our own script, style sheet and /graphql. GraphiQL's fonts are
 * data: URLs inside its style sheet; CodeMirror and React set element styles through the DOM, which a
 * CSP does not restrict, so no 'unsafe-inline' and no 'unsafe-eval' are needed.
 */
export const ADMIN_CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; font-src data:; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

interface BuiltConsole {
  index: StaticFile;
  assets: Map<string, StaticFile>;
}

function readBuiltConsole(directory: string): BuiltConsole {
  return { index: readStaticFile(path.join(directory, 'index.html')), assets: readAssets(directory) };
}

/**
 * The admin console at /admin: the back office (a React page of ours, with GraphiQL one click away, loaded when
 * opened), bundled from npm by admin-ui/build.mjs. The page itself holds no secret and needs no login: it
 * asks the admin to sign in, and every operation it runs is authorized by /graphql like any other caller's. Every
 * screen is `/admin` with a query string, so this one route serves them all.
 */
export function adminConsoleRouter(directory = path.join(PROJECT_ROOT, 'dist/admin-console')): express.Router {
  let built: BuiltConsole | undefined;
  // Read on first use, so a service started without the console built still serves everything else.
  const consoleFiles = (res: Response): BuiltConsole | null => {
    try {
      return (built ??= readBuiltConsole(directory));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      res.status(503).setHeader('Cache-Control', 'no-store');
      res.type('text/plain').send('The admin console is not built: run `npm run build`.');
      return null;
    }
  };
  const router = express.Router();

  router.get('/admin', (req, res) => {
    const files = consoleFiles(res);
    if (files) sendStatic(req, res, 200, files.index, NO_STORE, ADMIN_CONSOLE_CSP);
  });

  router.get('/admin/assets/:name', (req, res) => {
    const files = consoleFiles(res);
    if (!files) return;
    const asset = files.assets.get(req.params.name);
    if (asset) return sendStatic(req, res, 200, asset, IMMUTABLE, ADMIN_CONSOLE_CSP);
    pageSecurityHeaders(res, ADMIN_CONSOLE_CSP);
    res.status(404).setHeader('Cache-Control', NO_STORE);
    res.type('text/plain').send('Not found');
  });
  return router;
}
