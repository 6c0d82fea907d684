import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';

/**
 * Serving our built browser pages (the checkout page, the admin console): files read once with their
 * precompressed twins (src/shared/build-page-assets.mjs wrote them) and answered from memory with the
 * page's Content-Security-Policy and the usual security headers.
 */
export type Encoding = 'br' | 'gzip' | 'identity';

export interface StaticFile {
  type: string;
  bodies: Record<Encoding, Buffer>;
}

export const NO_STORE = 'no-store';
/** Asset names carry a hash of their content, so a year is safe. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export function readStaticFile(file: string): StaticFile {
  return {
    type: TYPES[path.extname(file)] ?? 'application/octet-stream',
    bodies: { identity: fs.readFileSync(file), gzip: fs.readFileSync(`${file}.gz`), br: fs.readFileSync(`${file}.br`) },
  };
}

/** The scripts and style sheets of `directory/assets`, by file name. */
export function readAssets(directory: string): Map<string, StaticFile> {
  const assets = new Map<string, StaticFile>();
  for (const name of fs.readdirSync(path.join(directory, 'assets'))) {
    if (/\.(js|css)$/.test(name)) assets.set(name, readStaticFile(path.join(directory, 'assets', name)));
  }
  return assets;
}

export function pageSecurityHeaders(res: Response, csp: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
}

/** Brotli (the smallest) when the client takes it, else gzip, else the plain bytes. */
export function preferredEncoding(req: Request): Encoding {
  return req.acceptsEncodings('br') === 'br' ? 'br' : req.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
}

export function sendStatic(req: Request, res: Response, status: number, file: StaticFile, cacheControl: string, csp: string): void {
  const encoding = preferredEncoding(req);
  const body = file.bodies[encoding];
  pageSecurityHeaders(res, csp);
  res.status(status);
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', cacheControl);
  res.vary('Accept-Encoding');
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
