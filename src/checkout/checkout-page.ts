import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { isPaymentId } from '../payments/payment-rules';
import { PROJECT_ROOT } from '../shared/project-root';

export interface CheckoutPageDeps {
  /** Whether the payment exists (in any status) and its checkout page may be shown. */
  paymentExists(id: string): Promise<boolean>;
  /** Told about a failure behind the 503 page (e.g. the database did not answer), to log it. */
  onError?(error: unknown, req: Request): void;
  /** Where `npm run build` put the page (checkout-ui/build.mjs); tests may point elsewhere. */
  directory?: string;
}

/** Strict enough that the page can run only its own script and style sheet and talk only to us. */
export const CHECKOUT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

type Encoding = 'br' | 'gzip' | 'identity';

interface StaticFile {
  type: string;
  bodies: Record<Encoding, Buffer>;
}

interface BuiltPage {
  index: StaticFile;
  notFound: StaticFile;
  unavailable: StaticFile;
  /** By file name, e.g. checkout.3f2a9c1b0d4e.js: the name carries a hash of the content. */
  assets: Map<string, StaticFile>;
}

function readFile(file: string): StaticFile {
  return {
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    bodies: { identity: fs.readFileSync(file), gzip: fs.readFileSync(`${file}.gz`), br: fs.readFileSync(`${file}.br`) },
  };
}

/** The whole page is a few kilobytes: read it once, with its precompressed twins, and serve from memory. */
function readBuiltPage(directory: string): BuiltPage {
  const assetDir = path.join(directory, 'assets');
  const assets = new Map<string, StaticFile>();
  for (const name of fs.readdirSync(assetDir)) {
    if (/\.(js|css)$/.test(name)) assets.set(name, readFile(path.join(assetDir, name)));
  }
  return {
    index: readFile(path.join(directory, 'index.html')),
    notFound: readFile(path.join(directory, 'not-found.html')),
    unavailable: readFile(path.join(directory, 'unavailable.html')),
    assets,
  };
}

function securityHeaders(req: Request, res: Response): void {
  res.setHeader('Content-Security-Policy', CHECKOUT_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  else res.removeHeader('Strict-Transport-Security');
}

/** Brotli (the smallest) when the client takes it, else gzip, else the plain bytes. */
function encodingFor(req: Request): Encoding {
  if (req.acceptsEncodings('br') === 'br') return 'br';
  if (req.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return 'identity';
}

function send(req: Request, res: Response, status: number, file: StaticFile, cacheControl: string): void {
  const encoding = encodingFor(req);
  const body = file.bodies[encoding];
  securityHeaders(req, res);
  res.status(status);
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

const NO_STORE = 'no-store';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The hosted checkout page: `GET /checkout/:id` answers the page shell (or a 404 page for an unknown
 * payment), `GET /checkout/assets/<name>` its script and style sheet. The page reads the payment id
 * from its address and talks to /graphql. Responses are precompressed (brotli or gzip, as accepted)
 * and carry a CSP that allows nothing but our own origin.
 */
export function checkoutPageRouter(deps: CheckoutPageDeps): express.Router {
  const directory = deps.directory ?? path.join(PROJECT_ROOT, 'dist/checkout-ui');
  let built: BuiltPage | undefined;
  // Read on first use, so a service started without the page built still serves everything else.
  const page = () => (built ??= readBuiltPage(directory));

  const router = express.Router();

  router.get('/checkout/assets/:name', (req, res) => {
    const asset = page().assets.get(req.params.name);
    if (asset) return send(req, res, 200, asset, IMMUTABLE);
    securityHeaders(req, res);
    res.status(404).setHeader('Cache-Control', NO_STORE);
    res.type('text/plain').send('Not found');
  });

  router.get('/checkout/:id', async (req, res, next) => {
    try {
      const { id } = req.params;
      const exists = isPaymentId(id) && (await deps.paymentExists(id));
      send(req, res, exists ? 200 : 404, exists ? page().index : page().notFound, NO_STORE);
    } catch (error) {
      // The customer gets a page saying to retry, not a stack trace; the failure goes to the log.
      deps.onError?.(error, req);
      let unavailable: StaticFile;
      try {
        unavailable = page().unavailable;
      } catch {
        return next(error);
      }
      send(req, res, 503, unavailable, NO_STORE);
    }
  });

  return router;
}
