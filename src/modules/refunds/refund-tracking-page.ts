import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import { clientAddress, locals } from '../../platform/http/request-context';
import { NO_STORE, pageSecurityHeaders } from '../../platform/http/static-page';
import { escapeHtml as e } from '../notifications';
import { DEFAULT_LANGUAGE, directionOf, languageFromAcceptLanguage, type PageLanguage } from '../../shared/customer-language/languages';
import { translator, type Translator } from '../../shared/customer-language/messages';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { PROJECT_ROOT } from '../../shared/project-root';
import { RefundStatus } from './refund.entity';
import { trackingStages, whatHappensNext, type TrackedRefund, type TrackingStage } from './refund-tracking';

export interface RefundTrackingPageDeps {
  /** The refund a link token names, or null (unknown, malformed or expired: the caller cannot tell which). */
  findRefund(token: string): Promise<TrackedRefund | null>;
  /** Page views per client address, right link or wrong: links cannot be guessed at speed. */
  viewsPerClient: RateLimiter;
  /** Told about a failure behind the 503 page, to log it. */
  onError?(error: unknown, req: Request): void;
  /** The built checkout page, whose style sheet this page shares (checkout-ui/build.mjs); tests may point elsewhere. */
  checkoutDirectory?: string;
}

/** The stage list's few rules on top of the checkout's style sheet, inline and allowed by their hash alone. */
const PAGE_STYLE = [
  '.figure-label{margin:0;font-size:.875rem;color:var(--muted)}',
  '.amount{margin-bottom:1rem}',
  '.currency{font-size:1rem;font-weight:600;color:var(--muted)}',
  'h2{margin-top:1.5rem}',
  '.stages{list-style:none;margin:0 0 1rem;padding:0}',
  // The marker of the current step follows its label on screen (aria-current says it to screen readers).
  '.stage{position:relative;display:flex;flex-wrap:wrap;align-items:baseline;column-gap:.25em;padding-block:0 1rem;padding-inline:1.75rem 0;overflow-wrap:anywhere}',
  '.stage::before{content:"";position:absolute;inset-inline-start:0;top:.3rem;width:.875rem;height:.875rem;border-radius:50%;border:2px solid var(--border);background:var(--surface)}',
  '.stage.reached::before{border-color:var(--accent);background:var(--accent)}',
  '.stage:not(:last-child)::after{content:"";position:absolute;inset-inline-start:.375rem;top:1.3rem;bottom:.1rem;width:2px;background:var(--border)}',
  '.stage-label{order:-2;font-weight:600}',
  '.stage-now{order:-1}',
  '.stage-when,.stage-detail{flex-basis:100%;font-size:.875rem;color:var(--muted)}',
  '.small{font-size:.875rem;color:var(--muted)}',
].join('');

const STYLE_HASH = createHash('sha256').update(PAGE_STYLE, 'utf8').digest('base64');

/** Our own style sheet and that one inline block; no script at all, no form, no frame, no referrer. */
export const REFUND_PAGE_CSP = `default-src 'none'; style-src 'self' 'sha256-${STYLE_HASH}'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

/** How long the rate limiter's window is (the budget is REFUND_PAGE_VIEWS_PER_CLIENT per window). */
export const REFUND_PAGE_WINDOW_SECONDS = 900;

/**
 * `GET /refunds/<token>`: the customer's refund tracking page (src/modules/refunds/refund-tracking.ts), server-rendered,
 * with no script. Every answer (the page, 404, 429, 503) is kept out of caches, search engines and Referer headers;
 * a wrong, malformed or expired token gets the one 404 page, byte for byte, so none of them tells anything.
 */
export function refundTrackingPageRouter(deps: RefundTrackingPageDeps): express.Router {
  const stylesheet = checkoutStylesheet(deps.checkoutDirectory ?? path.join(PROJECT_ROOT, 'dist/checkout-ui'));
  // In the browser's language: a wrong link has no payment to take one from. Each language's pages are written on
  // its first view and kept, so a start neither compiles the messages of every language nor loads the ICU parser.
  const messagePages = new Map<PageLanguage, MessagePages>();
  const messagePagesIn = (language: PageLanguage): MessagePages => {
    let pages = messagePages.get(language);
    if (!pages) {
      const tr = translator(language);
      pages = {
        notFound: messagePage(stylesheet, tr, 'refund.notFoundTitle', 'refund.notFoundText'),
        tooMany: messagePage(stylesheet, tr, 'refund.tooManyTitle', 'refund.tooManyText'),
        unavailable: messagePage(stylesheet, tr, 'refund.unavailableTitle', 'refund.unavailableText'),
      };
      messagePages.set(language, pages);
    }
    return pages;
  };
  const router = express.Router();
  // Every path under /refunds: the raw rest of the path is the token, so `/refunds/x/y` or `/refunds/%zz` is a wrong token too.
  router.use('/refunds', async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // The path is the secret: the request's log line shows it without.
    locals(res).loggedPath = '/refunds/:token';
    const browserLanguage = languageFromAcceptLanguage(req.get('accept-language'));
    const pages = messagePagesIn(browserLanguage ?? DEFAULT_LANGUAGE);
    res.vary('Accept-Language');
    try {
      const decision = await deps.viewsPerClient.consume(clientAddress(req));
      if (!decision.allowed) {
        res.setHeader('Retry-After', String(decision.retryAfterSeconds));
        return send(res, 429, pages.tooMany);
      }
      const token = req.path.slice(1);
      const refund = await deps.findRefund(token);
      if (!refund) return send(res, 404, pages.notFound);
      send(res, 200, refundPage(stylesheet, refund, refund.language ?? browserLanguage ?? DEFAULT_LANGUAGE));
    } catch (error) {
      // The customer gets a page saying to retry, not a stack trace; the failure goes to the log.
      deps.onError?.(error, req);
      send(res, 503, pages.unavailable);
    }
  });
  return router;
}

function send(res: Response, status: number, html: string): void {
  pageSecurityHeaders(res, REFUND_PAGE_CSP);
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  res.setHeader('Cache-Control', NO_STORE);
  res.status(status).type('html').send(html);
}

/** The checkout's built style sheet (its name carries a hash of its content), or null when the page is not built. */
function checkoutStylesheet(directory: string): string | null {
  try {
    const name = fs.readdirSync(path.join(directory, 'assets')).find((file) => /^checkout\.[\w-]+\.css$/.test(file));
    return name ? `/checkout/assets/${name}` : null;
  } catch {
    return null;
  }
}

function document(stylesheet: string | null, language: PageLanguage, title: string, main: string): string {
  return [
    '<!doctype html>',
    `<html lang="${language}" dir="${directionOf(language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${e(title)}</title>`,
    '<link rel="icon" href="data:,">',
    stylesheet ? `<link rel="stylesheet" href="${e(stylesheet)}">` : '',
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    `<main class="card">\n${main}\n</main>`,
    '</body>',
    '</html>\n',
  ]
    .filter(Boolean)
    .join('\n');
}

type Key = Parameters<Translator['t']>[0];

interface MessagePages {
  notFound: string;
  tooMany: string;
  unavailable: string;
}

function messagePage(stylesheet: string | null, { language, t }: Translator, heading: Key, text: Key): string {
  return document(stylesheet, language, t(heading), `<h1>${e(t(heading))}</h1>\n<p>${e(t(text))}</p>`);
}

const timeOf = (tr: Translator, at: Date) => `<time datetime="${at.toISOString()}">${e(tr.dateTime(at))}</time>`;

/** Text with a value of ours (a link, a time) put where the message has its argument: the rest escaped. */
function withMarkup(tr: Translator, key: Key, values: Record<string, string>, markup: Record<string, string>): string {
  const marks = Object.fromEntries(Object.keys(markup).map((name) => [name, `\u0000${name}\u0000`]));
  const plain = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value.replace(/\u0000/g, '')]));
  return e(tr.t(key, { ...plain, ...marks })).replace(/\u0000(\w+)\u0000/g, (_, name: string) => markup[name]);
}

function stageItem(tr: Translator, stage: TrackingStage, current: boolean): string {
  const when = stage.reached ? (stage.at ? timeOf(tr, stage.at) : '') : e(tr.t('refund.notYet'));
  return [
    `<li class="stage${stage.reached ? ' reached' : ''}"${current ? ' aria-current="step"' : ''}>`,
    `<span class="stage-label">${e(stage.label)}</span>`,
    when ? `<span class="stage-when">${when}</span>` : '',
    stage.detail ? `<span class="stage-detail">${e(stage.detail)}</span>` : '',
    current ? `<span class="stage-now" aria-hidden="true">${e(tr.t('refund.now'))}</span>` : '',
    '</li>',
  ].join('');
}

/** The page, in the payment's language: the shop, the amount, what happens next, the stages in order, and how to reach the shop. */
export function refundPage(stylesheet: string | null, refund: TrackedRefund, language: PageLanguage = refund.language ?? DEFAULT_LANGUAGE): string {
  const tr = translator(language);
  const { t } = tr;
  const shop = refund.shopName;
  const stages = trackingStages(refund, tr);
  const current = stages.map((s) => s.reached).lastIndexOf(true);
  const done = refund.status === RefundStatus.REFUNDED || refund.status === RefundStatus.REVERSED;
  const contact = refund.supportEmail
    ? withMarkup(tr, 'refund.contactAt', { shop }, { address: `<a href="mailto:${e(refund.supportEmail)}">${e(refund.supportEmail)}</a>` })
    : e(t('refund.contactShop', { shop }));
  const expiry = refund.expiresAt ? ` ${withMarkup(tr, 'refund.worksUntil', {}, { time: timeOf(tr, refund.expiresAt) })}` : '';
  const main = [
    `<h1><span class="eyebrow">${e(t('refund.from'))}</span> ${e(shop)}</h1>`,
    `<p class="figure-label">${e(t(done ? 'refund.amountRefunded' : 'refund.amountToRefund'))}</p>`,
    `<p class="amount">${e(tr.money(refund.amount, refund.currency))} <span class="currency">${e(refund.currency)}</span></p>`,
    `<h2>${e(t('refund.next'))}</h2>`,
    ...whatHappensNext(refund, tr).map((text) => `<p>${e(text)}</p>`),
    `<h2>${e(t('refund.progress'))}</h2>`,
    `<ol class="stages">${stages.map((stage, i) => stageItem(tr, stage, i === current)).join('')}</ol>`,
    `<h2>${e(t('refund.questions'))}</h2>`,
    `<p>${contact}</p>`,
    `<p class="small">${e(t('refund.privacy'))}${expiry}</p>`,
  ].join('\n');
  return document(stylesheet, language, t('refund.title', { shop }), main);
}
