import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { PROJECT_ROOT } from '../shared/project-root';

/**
 * As strict as GraphiQL allows: only our own script, style sheet and /graphql. GraphiQL's fonts are
 * data: URLs inside its style sheet; CodeMirror and React set element styles through the DOM, which a
 * CSP does not restrict, so no 'unsafe-inline' and no 'unsafe-eval' are needed.
 */
export const ADMIN_CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; font-src data:; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

type Encoding = 'br' | 'gzip' | 'identity';

interface StaticFile {
  type: string;
  bodies: Record<Encoding, Buffer>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function readFile(file: string): StaticFile {
  return {
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    bodies: { identity: fs.readFileSync(file), gzip: fs.readFileSync(`${file}.gz`), br: fs.readFileSync(`${file}.br`) },
  };
}

interface BuiltConsole {
  index: StaticFile;
  assets: Map<string, StaticFile>;
}

function readBuiltConsole(directory: string): BuiltConsole {
  const assets = new Map<string, StaticFile>();
  for (const name of fs.readdirSync(path.join(directory, 'assets'))) {
    if (/\.(js|css)$/.test(name)) assets.set(name, readFile(path.join(directory, 'assets', name)));
  }
  return { index: readFile(path.join(directory, 'index.html')), assets };
}

function securityHeaders(req: Request, res: Response): void {
  res.setHeader('Content-Security-Policy', ADMIN_CONSOLE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (!req.secure) res.removeHeader('Strict-Transport-Security');
}

function send(req: Request, res: Response, file: StaticFile, cacheControl: string): void {
  const encoding: Encoding = req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
  const body = file.bodies[encoding];
  securityHeaders(req, res);
  res.status(200);
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * The admin console at /admin: a page of ours with GraphiQL bundled from npm (src/admin-console/build.mjs).
 * The page itself holds no secret and needs no login: it asks for the admin token, and every operation it
 * runs is authorized by /graphql like any other caller's.
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
    if (files) send(req, res, files.index, 'no-store');
  });

  router.get('/admin/assets/:name', (req, res) => {
    const files = consoleFiles(res);
    if (!files) return;
    const asset = files.assets.get(req.params.name);
    if (asset) return send(req, res, asset, 'public, max-age=31536000, immutable');
    securityHeaders(req, res);
    res.status(404).setHeader('Cache-Control', 'no-store');
    res.type('text/plain').send('Not found');
  });
  return router;
}
