import path from 'node:path';
import express, { type Request } from 'express';
import { IMMUTABLE, NO_STORE, pageSecurityHeaders, readAssets, readStaticFile, sendStatic, type StaticFile } from '../../platform/http/static-page';
import { isPaymentId } from '../payments';
import { DEFAULT_LANGUAGE, directionOf, isLanguage, isPageLanguage, LANGUAGES, languageFromAcceptLanguage, PSEUDO_LANGUAGE, type Language, type PageLanguage } from '../../shared/customer-language/languages';
import { translator } from '../../shared/customer-language/messages';
import { PROJECT_ROOT } from '../../shared/project-root';
import { RETURN_TOKEN_MAX_LENGTH, RETURN_TOKEN_PARAM } from './issuer-return-token';

export interface CheckoutPageDeps {
  /** Whether the payment exists (in any status) and its checkout page may be shown. */
  paymentExists(id: string): Promise<boolean>;
  /** Told about a failure behind the 503 page (e.g. the database did not answer), to log it. */
  onError?(error: unknown, req: Request): void;
  /** Where `npm run build` put the page (checkout-ui/build.mjs); tests may point elsewhere. */
  directory?: string;
  /** The redirect 3-D Secure flow (an acquirer such as Adyen): where the issuer's page is, and the way back. */
  issuer?: IssuerRedirects;
  /** The language remembered for a payment; without it, the page goes by the browser's alone. */
  languages?: PaymentLanguages;
}

export interface PaymentLanguages {
  /** The payment's language, or null when none was chosen or sent yet. */
  of(paymentId: string): Promise<Language | null>;
  /** The customer picked a language in the page's menu: remembered while the payment can be paid. */
  choose(paymentId: string, language: Language): Promise<void>;
}

export interface IssuerRedirects {
  /**
   * The open challenge's issuer page, or null when the payment has none (any more), or when `challengeToken` is
   * not the one handed to the browser that opened the challenge.
   */
  redirectOf(paymentId: string, challengeToken: string | undefined): Promise<{ url: string; method: 'GET' | 'POST'; data?: Record<string, string> } | null>;
  /**
   * The customer is back with the issuer's result and the return address's token (null when it carries none);
   * safe to call any number of times (it runs once, and only with the right token).
   */
  returnFromIssuer(paymentId: string, redirectResult: string, returnToken: string | null, req: Request): Promise<void>;
}

/** Strict enough that the page can run only its own script and style sheet and talk only to us. */
export const CHECKOUT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

interface PageInLanguage {
  index: StaticFile;
  notFound: StaticFile;
  unavailable: StaticFile;
}

interface BuiltPage {
  /** Each language's page (checkout-ui/build.mjs writes one per language and one in the pseudo-language). */
  languages: Map<PageLanguage, PageInLanguage>;
  /** By file name, e.g. checkout.3f2a9c1b0d4e.js: the name carries a hash of the content. */
  assets: Map<string, StaticFile>;
}

/** The whole page is a few kilobytes: read it once, with its precompressed twins, and serve from memory. */
function readBuiltPage(directory: string): BuiltPage {
  const read = (language: PageLanguage): PageInLanguage => ({
    index: readStaticFile(path.join(directory, `index.${language}.html`)),
    notFound: readStaticFile(path.join(directory, `not-found.${language}.html`)),
    unavailable: readStaticFile(path.join(directory, `unavailable.${language}.html`)),
  });
  return { languages: new Map(([...LANGUAGES, PSEUDO_LANGUAGE] as PageLanguage[]).map((language) => [language, read(language)])), assets: readAssets(directory) };
}

/**
 * The page's language: the one picked in its menu (`?lang=`), else the payment's, else the browser's best
 * (Accept-Language), else English. The pseudo-language of the tests is served when asked for, never remembered.
 */
export function pageLanguageOf(req: Request, remembered: Language | null): PageLanguage {
  const asked = req.query.lang;
  if (isPageLanguage(asked)) return asked;
  return remembered ?? languageFromAcceptLanguage(req.get('accept-language')) ?? DEFAULT_LANGUAGE;
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

  if (deps.issuer) issuerRoutes(router, deps.issuer, deps.onError, deps.languages);

  router.get('/checkout/:id', async (req, res, next) => {
    let language = pageLanguageOf(req, null);
    try {
      const { id } = req.params;
      const exists = isPaymentId(id) && (await deps.paymentExists(id));
      if (exists && deps.languages) {
        if (isLanguage(req.query.lang)) await deps.languages.choose(id, req.query.lang);
        else language = pageLanguageOf(req, await deps.languages.of(id));
      }
      const built = page().languages.get(language)!;
      // The same address answers in another language for another browser or choice: caches must tell them apart.
      res.vary('Accept-Language');
      sendStatic(req, res, exists ? 200 : 404, exists ? built.index : built.notFound, NO_STORE, CHECKOUT_CSP);
    } catch (error) {
      // The customer gets a page saying to retry, not a stack trace; the failure goes to the log.
      deps.onError?.(error, req);
      let unavailable: StaticFile;
      try {
        unavailable = page().languages.get(language)!.unavailable;
      } catch {
        return next(error);
      }
      sendStatic(req, res, 503, unavailable, NO_STORE, CHECKOUT_CSP);
    }
  });

  return router;
}

/**
 * `GET /checkout/:id/3ds?t=<token>` sends the browser that opened the challenge (its card submission's answer
 * carried the token) to the issuer's 3-D Secure page (a 303 for a GET redirect; for a POST, a plain form whose
 * only script-free way out is the button, under a CSP that allows posting to that issuer alone); anyone else is
 * sent back to the page. `GET|POST /checkout/:id/3ds-return` is where the issuer sends the customer back: the result
 * is handed on with the return address's token (it runs once however often this loads, and only with that
 * token) and the customer lands on the checkout page, which shows the outcome. Nothing but our own script
 * ever runs on our pages.
 */
function issuerRoutes(router: express.Router, issuer: IssuerRedirects, onError: CheckoutPageDeps['onError'], languages: PaymentLanguages | undefined): void {
  const toPage = (res: express.Response, path: string) => res.status(303).setHeader('Cache-Control', NO_STORE).setHeader('Location', path).end();
  const backToPage = (res: express.Response, id: string) => toPage(res, `/checkout/${id}`);
  // `issuer=returned` tells the page the customer just came back, so a settled payment takes them on to the shop.
  const returnedToPage = (res: express.Response, id: string) => toPage(res, `/checkout/${id}?issuer=returned`);

  router.get('/checkout/:id/3ds', async (req, res, next) => {
    try {
      const { id } = req.params;
      if (!isPaymentId(id)) return backToPage(res, '');
      // The challenge's token, handed only to the browser whose card submission opened the challenge.
      const token = req.query[RETURN_TOKEN_PARAM];
      const redirect = await issuer.redirectOf(id, typeof token === 'string' && token.length <= RETURN_TOKEN_MAX_LENGTH ? token : undefined);
      // Anyone else (or a challenge gone) lands on the page, told the bank is confirming elsewhere: never a loop back here.
      if (!redirect || !/^https?:$/.test(new URL(redirect.url).protocol)) return toPage(res, `/checkout/${id}?issuer=elsewhere`);
      if (redirect.method === 'GET') return res.status(303).setHeader('Cache-Control', NO_STORE).setHeader('Location', redirect.url).end();
      pageSecurityHeaders(res, `default-src 'none'; style-src 'self'; form-action ${new URL(redirect.url).origin}; frame-ancestors 'none'; base-uri 'none'`);
      const language = pageLanguageOf(req, (await languages?.of(id)) ?? null);
      res.status(200).setHeader('Cache-Control', NO_STORE).type('html').send(postRedirectPage(redirect.url, redirect.data ?? {}, language));
    } catch (error) {
      next(error);
    }
  });

  const handleReturn = async (req: Request<{ id: string }>, res: express.Response) => {
    const { id } = req.params;
    if (!isPaymentId(id)) return backToPage(res, '');
    const source = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
    const redirectResult = source?.redirectResult;
    // The token is in the return address we gave the acquirer, so in the query string whatever the method.
    const token = req.query[RETURN_TOKEN_PARAM];
    const returnToken = typeof token === 'string' && token.length <= RETURN_TOKEN_MAX_LENGTH ? token : null;
    if (typeof redirectResult === 'string' && redirectResult.length > 0 && redirectResult.length <= 10_000) {
      try {
        await issuer.returnFromIssuer(id, redirectResult, returnToken, req);
      } catch (error) {
        // The page shows what became of the payment (failed, or still processing while reconciliation asks).
        onError?.(error, req);
      }
    }
    returnedToPage(res, id);
  };
  router.get('/checkout/:id/3ds-return', handleReturn);
  router.post('/checkout/:id/3ds-return', express.urlencoded({ extended: false, limit: '64kb' }), handleReturn);
}

function postRedirectPage(url: string, data: Record<string, string>, language: PageLanguage): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const { t } = translator(language);
  const fields = Object.entries(data).map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`).join('');
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><title>${escape(t('bank.title'))}</title></head><body><main>
<h1>${escape(t('bank.heading'))}</h1><form method="post" action="${escape(url)}">${fields}<button type="submit">${escape(t('bank.continue'))}</button></form>
</main></body></html>`;
}
