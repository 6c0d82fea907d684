import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * Helmet's headers, with HSTS (a year, subdomains included) whenever the public address is https: behind a
 * TLS-terminating load balancer the request itself arrives over plain HTTP, so `req.secure` cannot decide.
 * Pages set their own Content-Security-Policy on top (src/http/static-page.ts).
 *
 * Helmet decides the headers once, at start (with these options they depend on nothing in the request);
 * each answer then gets the same list, in helmet's order, without running its thirteen middlewares per
 * request (docs/performance.md).
 */
export function securityHeaders(baseUrl: string) {
  const headers = helmetHeaders(helmet({ strictTransportSecurity: new URL(baseUrl).protocol === 'https:' }));
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

type Helmet = ReturnType<typeof helmet>;

/** The headers a helmet middleware sets, read by running it once against a recording answer. */
export function helmetHeaders(middleware: Helmet): ReadonlyArray<readonly [string, string]> {
  const headers: Array<[string, string]> = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => undefined };
  let finished = false;
  // Helmet reads nothing of the request and only sets and removes headers on the answer.
  middleware({} as Parameters<Helmet>[0], recorder as unknown as Parameters<Helmet>[1], (error) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet calls next synchronously; a future version that did not would leave the list incomplete.
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}
