import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Router, type RequestHandler, type Response } from 'express';
import { preferredEncoding } from '../../platform/http/static-page';
import { PROJECT_ROOT } from '../../shared/project-root';
import type { NamedOperations } from '../graphql/operations';
import { openApiDocument } from './openapi/document';
import { REST_ROUTES } from './routes';

/**
 * No inline script or style: only our own script (which fetches the document from this origin) and style
 * sheet. The renderer builds the page with DOM calls and `textContent`, never HTML strings.
 */
export const API_REFERENCE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const PAGE_DIRECTORY = path.join(PROJECT_ROOT, 'src/api/rest/reference-page');
const brotli = promisify(zlib.brotliCompress);
const gzipped = promisify(zlib.gzip);

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payments API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/v1/docs/reference.css">
<script src="/api/v1/docs/reference.js" defer></script>
</head>
<body>
<a class="skip-link" href="#reference">Skip to the reference</a>
<div class="layout">
<main id="reference" tabindex="-1" data-openapi="/api/v1/openapi.json">
<h1>Payments API reference</h1>
<p id="reference-status" role="status">Loading the OpenAPI document…</p>
<noscript><p>This page needs JavaScript. The document itself is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript>
</main>
</div>
</body>
</html>
`;

/**
 * Public, before the REST router's authentication: `GET /openapi.json` (the OpenAPI 3.1 document of the
 * facade) and `GET /docs` (a reference page rendered from it in the browser by src/api/rest/reference-page/).
 * Anything else falls through to the REST router.
 */
export function apiReferenceRouter(baseUrl: string, operations: NamedOperations): Router {
  const document = Buffer.from(JSON.stringify(openApiDocument(baseUrl, REST_ROUTES, operations), null, 2));
  const script = fs.readFileSync(path.join(PAGE_DIRECTORY, 'reference.js'));
  const styles = fs.readFileSync(path.join(PAGE_DIRECTORY, 'reference.css'));
  const router = Router();
  router.get('/openapi.json', fixedAnswer('application/json; charset=utf-8', document, false));
  router.get('/docs', fixedAnswer('text/html; charset=utf-8', Buffer.from(SHELL), true));
  router.get('/docs/reference.js', fixedAnswer('text/javascript; charset=utf-8', script, true));
  router.get('/docs/reference.css', fixedAnswer('text/css; charset=utf-8', styles, true));
  return router;
}

/**
 * An answer that never changes while the process runs, sent compressed to a client that takes it: Brotli or gzip at
 * their best levels, made once on the first request that asks (off the event loop) and kept, so a public route
 * spends no CPU per request on it (docs/decisions/0024-compressed-answers.md). Identical bytes once decoded.
 */
function fixedAnswer(type: string, body: Buffer, isPage: boolean): RequestHandler {
  let compressed: Promise<Record<'br' | 'gzip', Buffer>> | undefined;
  return (req, res, next) => {
    const encoding = preferredEncoding(req);
    if (isPage) pageHeaders(res);
    // Said to every client: a cache keeps one copy per encoding (these answers may be cached, then revalidated).
    res.vary('Accept-Encoding');
    if (encoding === 'identity') return send(res, type, body);
    (compressed ??= compressOnce(body)).then((bodies) => {
      res.setHeader('Content-Encoding', encoding);
      send(res, type, bodies[encoding]);
    }, next);
  };
}

async function compressOnce(body: Buffer): Promise<Record<'br' | 'gzip', Buffer>> {
  const [br, gzip] = await Promise.all([
    brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipped(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip };
}

function send(res: Response, type: string, body: Buffer): void {
  res.status(200);
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', API_REFERENCE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}
