import path from 'node:path';
import express, { type Request } from 'express';
import { IMMUTABLE, NO_STORE, pageSecurityHeaders, readAssets, readStaticFile, sendStatic, type StaticFile } from '../http/static-page';
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

interface BuiltPage {
  index: StaticFile;
  notFound: StaticFile;
  unavailable: StaticFile;
  /** By file name, e.g. checkout.3f2a9c1b0d4e.js: the name carries a hash of the content. */
  assets: Map<string, StaticFile>;
}

/** The whole page is a few kilobytes: read it once, with its precompressed twins, and serve from memory. */
function readBuiltPage(directory: string): BuiltPage {
  return {
    index: readStaticFile(path.join(directory, 'index.html')),
    notFound: readStaticFile(path.join(directory, 'not-found.html')),
    unavailable: readStaticFile(path.join(directory, 'unavailable.html')),
    assets: readAssets(directory),
  };
}

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
    if (asset) return sendStatic(req, res, 200, asset, IMMUTABLE, CHECKOUT_CSP);
    pageSecurityHeaders(res, CHECKOUT_CSP);
    res.status(404).setHeader('Cache-Control', NO_STORE);
    res.type('text/plain').send('Not found');
  });

  router.get('/checkout/:id', async (req, res, next) => {
    try {
      const { id } = req.params;
      const exists = isPaymentId(id) && (await deps.paymentExists(id));
      sendStatic(req, res, exists ? 200 : 404, exists ? page().index : page().notFound, NO_STORE, CHECKOUT_CSP);
    } catch (error) {
      // The customer gets a page saying to retry, not a stack trace; the failure goes to the log.
      deps.onError?.(error, req);
      let unavailable: StaticFile;
      try {
        unavailable = page().unavailable;
      } catch {
        return next(error);
      }
      sendStatic(req, res, 503, unavailable, NO_STORE, CHECKOUT_CSP);
    }
  });

  return router;
}
