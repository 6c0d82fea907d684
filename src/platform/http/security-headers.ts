import helmet from 'helmet';

/**
 * Helmet's headers, with HSTS (a year, subdomains included) whenever the public address is https: behind a
 * TLS-terminating load balancer the request itself arrives over plain HTTP, so `req.secure` cannot decide.
 * Pages set their own Content-Security-Policy on top (src/platform/http/static-page.ts).
 */
export function securityHeaders(baseUrl: string) {
  return helmet({ strictTransportSecurity: new URL(baseUrl).protocol === 'https:' });
}
