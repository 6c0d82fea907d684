import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import ipaddr from 'ipaddr.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isLocalBaseUrl } from '../../shared/config';
import { DomainError } from '../../shared/errors';
import { NO_STORE, pageSecurityHeaders } from '../../platform/http/static-page';
import type { SecretBox } from '../identity';
import { listMails, mailText, type ReadableMail } from './mail-listing';
import { escapeHtml } from './mail-text';

/**
 * The local mail viewer (docs/operations.md, "Mail"): at /dev/mail, every mail the service wrote, newest first, and
 * each one's words with its links working, for the developer running `npm start` without SMTP_URL, whose mails
 * are kept in the database. Account mails' links are capabilities (a reset link is the account), so the viewer
 * exists only where no mail can leave the machine and the service is this machine's own: SMTP_URL unset and
 * BASE_URL local (NODE_ENV cannot say "production": src/apps/production-mode.ts sets it for every start).
 * Elsewhere the routes are not mounted at all and answer 404 as any unknown path.
 */
export function mailViewerOn(config: { smtpUrl: string | undefined }, baseUrl: string): boolean {
  return !config.smtpUrl && isLocalBaseUrl(baseUrl);
}

export const MAIL_VIEWER_PATH = '/dev/mail';

/** How many mails the list shows. */
const LIST_SIZE = 100;

const CSS = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: #1b1f24; background: #fff; }
body { margin: 0; }
.banner { margin: 0; padding: 0.5rem 1rem; background: #fff4ce; border-bottom: 1px solid #d9c37a; font-size: 0.875rem; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
a { color: #0b57d0; }
ol.mails { list-style: none; margin: 0; padding: 0; }
ol.mails li { border-top: 1px solid #d0d7de; padding: 0.75rem 0; }
ol.mails li:last-child { border-bottom: 1px solid #d0d7de; }
.subject { font-weight: 600; overflow-wrap: anywhere; }
.meta { display: block; color: #4b535d; font-size: 0.875rem; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; padding: 1rem; margin: 0; }
.missing { color: #4b535d; font-style: italic; }
`;

/**
 * The viewer's pages run no script at all and load nothing: the one style sheet is allowed by its hash, forms go
 * nowhere, and no other site may frame them. Everything shown is escaped.
 */
const VIEWER_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A mail's HTML part as its own document, sandboxed: an opaque origin, no script even if one were there, no form
 * sent, no plugin. Inline styles are how mails are styled, so they are allowed; nothing is fetched (no images).
 */
const MAIL_HTML_CSP = ['sandbox', "default-src 'none'", "style-src 'unsafe-inline'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

export interface MailViewerDeps {
  em: () => EntityManager;
  /** ACCOUNT_SECRETS_KEY's box: account mails' words are sealed with it. */
  secrets: SecretBox;
  /** BASE_URL: only links to this service are made clickable. */
  baseUrl: string;
}

/**
 * The viewer's routes, for this machine only: the connection must come from a loopback address, without a proxy's
 * forwarding headers (a proxy on this machine would be relaying someone else), and name this machine in its Host
 * header (a page of another site whose name was pointed at 127.0.0.1, DNS rebinding, sends its own name). Any other
 * request gets the same 404 as an unknown path. The pages only read: GET, and nothing changes.
 */
export function mailViewerRouter(deps: MailViewerDeps): express.Router {
  const router = express.Router();
  const thisMachineOnly = (req: Request, _res: Response, next: NextFunction) => (fromThisMachine(req) ? next() : next('router'));
  router.get(MAIL_VIEWER_PATH, thisMachineOnly, async (_req, res, next) => {
    try {
      const page = await listMails(deps.em(), {}, 1, LIST_SIZE);
      const more = page.pagination.total > page.items.length ? ` (the latest ${page.items.length} of ${page.pagination.total})` : '';
      const items = page.items.map(
        (m) =>
          `<li><a class="subject" href="${MAIL_VIEWER_PATH}/${encodeURIComponent(m.id)}">${escapeHtml(m.subject ?? `${m.kind} (not written out yet)`)}</a>` +
          `<span class="meta">To ${escapeHtml(m.recipient)} · ${escapeHtml(m.kind)} · ${escapeHtml(m.status)} · ${when(m.createdAt)}</span></li>`,
      );
      const body = page.items.length
        ? `<p>Every mail of this service, newest first${more}. Reload the page to see new ones.</p>\n<ol class="mails">\n${items.join('\n')}\n</ol>`
        : '<p>No mails yet. Sign up on the dashboard, or pay a payment with a customer e-mail, and reload.</p>';
      send(res, 200, 'Mail', `<h1>Mail</h1>\n${body}`);
    } catch (error) {
      next(error);
    }
  });
  router.get(`${MAIL_VIEWER_PATH}/:id`, thisMachineOnly, async (req, res, next) => {
    try {
      const mail = await readMail(deps, String(req.params.id));
      if (!mail) return void notFound(res);
      send(res, 200, mail.subject ?? 'Mail', mailPage(mail, deps.baseUrl));
    } catch (error) {
      next(error);
    }
  });
  router.get(`${MAIL_VIEWER_PATH}/:id/html`, thisMachineOnly, async (req, res, next) => {
    try {
      const mail = await readMail(deps, String(req.params.id));
      if (!mail?.html) return void notFound(res);
      pageSecurityHeaders(res, MAIL_HTML_CSP);
      res.status(200).setHeader('Cache-Control', NO_STORE);
      res.type('text/html; charset=utf-8').send(mail.html);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

async function readMail(deps: MailViewerDeps, id: string): Promise<ReadableMail | null> {
  if (!/^mail_[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
  try {
    return await mailText(deps.em(), id, deps.secrets);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'MAIL_NOT_FOUND') return null;
    throw error;
  }
}

function mailPage(mail: ReadableMail, baseUrl: string): string {
  const rows: [string, string][] = [
    ['To', mail.recipient],
    ['Kind', mail.kind],
    ['Status', mail.status],
    ['Written', when(mail.createdAt)],
    ['Sent', mail.sentAt ? when(mail.sentAt) : '-'],
    ...(mail.lastError ? ([['Last error', mail.lastError]] as [string, string][]) : []),
  ];
  const facts = `<dl>\n${rows.map(([name, value]) => `<dt>${name}</dt><dd>${escapeHtml(value)}</dd>`).join('\n')}\n</dl>`;
  const words = mail.text === null ? `<p class="missing">${escapeHtml(`No words to show: ${mail.missing ?? 'not written out yet'}.`)}</p>` : `<pre>${linked(mail.text, baseUrl)}</pre>`;
  const html = mail.html ? `\n<p><a href="${MAIL_VIEWER_PATH}/${encodeURIComponent(mail.id)}/html">The HTML part</a>, as a mail program shows it (scripts off).</p>` : '';
  return `<p><a href="${MAIL_VIEWER_PATH}">All mails</a></p>\n<h1>${escapeHtml(mail.subject ?? `${mail.kind} (not written out yet)`)}</h1>\n${facts}\n<h2>The mail</h2>\n${words}${html}`;
}

/**
 * The plain text, escaped, with its links to this service (BASE_URL) made clickable so the developer can follow
 * them. Any other address stays text: a shop or customer name that looks like a link is not one.
 */
export function linked(text: string, baseUrl: string): string {
  const origin = new URL(baseUrl).origin;
  let html = '';
  let from = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const at = match.index;
    html += escapeHtml(text.slice(from, at));
    const url = match[0];
    const ours = URL.canParse(url) && new URL(url).origin === origin;
    html += ours ? `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` : escapeHtml(url);
    from = at + url.length;
  }
  return html + escapeHtml(text.slice(from));
}

/** The connection comes from this machine, directly, and names this machine: see mailViewerRouter. */
export function fromThisMachine(req: Pick<Request, 'headers'> & { socket: { remoteAddress?: string } }): boolean {
  if (!isLoopback(req.socket.remoteAddress)) return false;
  if (req.headers.forwarded !== undefined || req.headers['x-forwarded-for'] !== undefined || req.headers['x-real-ip'] !== undefined) return false;
  const host = req.headers.host;
  if (!host || !URL.canParse(`http://${host}`)) return false;
  const name = new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '');
  return name === 'localhost' || isLoopback(name);
}

function isLoopback(address: string | undefined): boolean {
  return !!address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

const when = (date: Date) => date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');

function send(res: Response, status: number, title: string, main: string): void {
  pageSecurityHeaders(res, VIEWER_CSP);
  res.status(status).setHeader('Cache-Control', NO_STORE);
  res.type('text/html; charset=utf-8').send(
    [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${escapeHtml(title)} · local mail viewer</title>`,
      `<style>${CSS}</style>`,
      '</head>',
      '<body>',
      '<header><p class="banner">Local mail viewer: SMTP_URL is unset, so no mail leaves this machine. Only this machine can open this page.</p></header>',
      `<main>\n${main}\n</main>`,
      '</body>',
      '</html>',
    ].join('\n'),
  );
}

function notFound(res: Response): void {
  send(res, 404, 'No such mail', `<p><a href="${MAIL_VIEWER_PATH}">All mails</a></p>\n<h1>No such mail</h1>\n<p>There is no mail with this id.</p>`);
}
