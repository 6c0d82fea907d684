import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { CHECKOUT_CSP, checkoutPageRouter } from '../../../src/modules/checkout/checkout-page';
import { securityHeaders } from '../../../src/platform/http/security-headers';
import { PROJECT_ROOT } from '../../../src/shared/project-root';
import { LANGUAGES, type Language } from '../../../src/shared/customer-language/languages';

/**
 * The router that serves the hosted checkout page (built by `npm run build` into dist/checkout-ui),
 * mounted as the app mounts it: after helmet, whose defaults it must override.
 */
const KNOWN = 'pay_abcdefghijklmnopqrstuvwx';
const UNKNOWN = 'pay_000000000000000000000000';
const BUILT = path.join(PROJECT_ROOT, 'dist/checkout-ui');

function appWith(paymentExists: (id: string) => Promise<boolean>, options: { baseUrl?: string } = {}) {
  const app = express();
  app.use(securityHeaders(options.baseUrl ?? 'http://localhost:3000'));
  const errors: unknown[] = [];
  app.use(checkoutPageRouter({ paymentExists, onError: (error) => errors.push(error) }));
  app.use((_req, res) => res.status(404).json({ success: false }));
  return { app, errors };
}

const { app } = appWith(async (id) => id === KNOWN);
const asked: string[] = [];
const { app: countingApp } = appWith(async (id) => {
  asked.push(id);
  return false;
});

/** The bytes as sent, not decompressed on the way (as supertest would), with the headers. */
async function rawGet(path: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': acceptEncoding } }, resolve).on('error', reject),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return { headers: res.headers, body: Buffer.concat(chunks) };
  } finally {
    server.close();
  }
}

const assetNames = () => fs.readdirSync(path.join(BUILT, 'assets')).filter((n) => /\.(js|css)$/.test(n));

function expectSecurityHeaders(res: request.Response) {
  expect(res.headers['content-security-policy']).toBe(CHECKOUT_CSP);
  expect(res.headers['content-security-policy']).not.toContain('unsafe');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('GET /checkout/:id', () => {
  test('a known payment gets the page shell: HTML, no-store, strict CSP, no HSTS when BASE_URL is http', async () => {
    const res = await request(app).get(`/checkout/${KNOWN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(res);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.text).toContain('<html lang="en" dir="ltr">');
    expect(res.text).toMatch(/<script src="\/checkout\/assets\/checkout\.[0-9a-f]{12}\.js" defer><\/script>/);
    expect(res.text).not.toMatch(/<script>|style=|https?:\/\//);
  });

  test('when BASE_URL is https it adds Strict-Transport-Security, though TLS ended at the load balancer', async () => {
    const { app: secured } = appWith(async () => true, { baseUrl: 'https://pay.example.com' });
    const res = await request(secured).get(`/checkout/${KNOWN}`);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  test('an unknown payment, or an id of the wrong shape (never looked up), is a 404 HTML page', async () => {
    for (const id of [UNKNOWN, 'pay_short', '..%2F..%2Fpackage.json', 'pay_abcdefghijklmnopqrstuvw%3C']) {
      const res = await request(countingApp).get(`/checkout/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<h1>Payment not found</h1>');
      expectSecurityHeaders(res);
    }
    expect(asked).toEqual([UNKNOWN]);
  });

  test('when the lookup fails the customer gets a 503 page, not a stack trace, and the error is reported', async () => {
    const failure = new Error('database down');
    const { app: broken, errors } = appWith(async () => {
      throw failure;
    });
    const res = await request(broken).get(`/checkout/${KNOWN}`);
    expect(res.status).toBe(503);
    expect(res.text).toContain('Checkout is unavailable');
    expect(res.text).not.toContain('database down');
    expect(errors).toEqual([failure]);
  });

  test('HEAD answers the headers only', async () => {
    const res = await request(app).head(`/checkout/${KNOWN}`);
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
  });
});

describe('compression and caching', () => {
  test('gzip when the client accepts it, brotli when preferred, plain otherwise; Vary: Accept-Encoding', async () => {
    const plain = await rawGet(`/checkout/${KNOWN}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toContain('<!doctype html>');

    const gzip = await rawGet(`/checkout/${KNOWN}`, 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(gzip.headers['content-length'])).toBe(gzip.body.length);
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length);

    const br = await rawGet(`/checkout/${KNOWN}`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  test('hashed assets are cached for a year, with their type and the same security headers', async () => {
    const names = assetNames();
    expect(names.map((n) => path.extname(n)).sort()).toEqual(['.css', '.js']);
    for (const name of names) {
      const res = await request(app).get(`/checkout/assets/${name}`).set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
      expectSecurityHeaders(res);
    }
  });

  test('an unknown asset, or one outside the folder, is a 404', async () => {
    for (const name of ['checkout.000000000000.js', '..%2F..%2Fpackage.json', 'index.html']) {
      const res = await request(app).get(`/checkout/assets/${name}`);
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});

describe("the page's language", () => {
  /** The payments' remembered languages, as the payments table would keep them (the browser suites use the real one). */
  function appWithLanguages() {
    const remembered = new Map<string, Language>();
    const chosen: [string, Language][] = [];
    const app = express();
    app.use(
      checkoutPageRouter({
        paymentExists: async (id) => id === KNOWN,
        languages: {
          of: async (id) => remembered.get(id) ?? null,
          choose: async (id, language) => {
            chosen.push([id, language]);
            remembered.set(id, language);
          },
        },
      }),
    );
    return { app, remembered, chosen };
  }
  const langOf = (res: request.Response) => /<html lang="([^"]+)" dir="(ltr|rtl)">/.exec(res.text)?.slice(1);

  test("the browser's best language of ours (Accept-Language, by quality), English when none matches; caches are told it varies", async () => {
    const { app: languagesApp, chosen } = appWithLanguages();
    const ask = (header: string) => request(languagesApp).get(`/checkout/${KNOWN}`).set('Accept-Language', header);
    expect(langOf(await ask('fr-CH, fr;q=0.9, en;q=0.8'))).toEqual(['fr', 'ltr']);
    expect(langOf(await ask('sv, de;q=0.5, ja;q=0.7'))).toEqual(['ja', 'ltr']);
    expect(langOf(await ask('pt-PT'))).toEqual(['pt-BR', 'ltr']);
    expect(langOf(await ask('ar-EG'))).toEqual(['ar', 'rtl']);
    expect(langOf(await ask('de;q=0, sv'))).toEqual(['en', 'ltr']);
    // Read only so far: a range past the first 512 characters is not looked at.
    expect(langOf(await ask(`${'x'.repeat(600)},de`))).toEqual(['en', 'ltr']);
    expect(langOf(await ask(`${'x'.repeat(400)},de`))).toEqual(['de', 'ltr']);
    expect((await ask('de')).headers.vary).toMatch(/Accept-Language/);
    // Looking is not choosing: only the menu and the card's submission remember a language.
    expect(chosen).toEqual([]);
  });

  test('the menu (?lang=) chooses a language for the payment; it is remembered over the browser\'s', async () => {
    const { app: languagesApp, chosen } = appWithLanguages();
    const res = await request(languagesApp).get(`/checkout/${KNOWN}?lang=ar`).set('Accept-Language', 'de');
    expect(langOf(res)).toEqual(['ar', 'rtl']);
    expect(res.text).toContain('<option value="ar" lang="ar" selected>');
    expect(chosen).toEqual([[KNOWN, 'ar']]);
    expect(langOf(await request(languagesApp).get(`/checkout/${KNOWN}`).set('Accept-Language', 'de'))).toEqual(['ar', 'rtl']);
  });

  test('a language we do not have, a list, another case or the pseudo-language is never remembered; an unknown payment remembers nothing', async () => {
    const { app: languagesApp, chosen } = appWithLanguages();
    for (const query of ['lang=xx', 'lang=DE', 'lang[]=de', 'lang=de&lang=fr', 'lang=de%00', 'lang=en-XA']) {
      const res = await request(languagesApp).get(`/checkout/${KNOWN}?${query}`).set('Accept-Language', 'nl');
      expect(res.status).toBe(200);
      expect(langOf(res)?.[0]).toBe(query === 'lang=en-XA' ? 'en-XA' : 'nl');
    }
    const unknown = await request(languagesApp).get(`/checkout/${UNKNOWN}?lang=de`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Zahlung nicht gefunden');
    expect(chosen).toEqual([]);
  });
});

describe('the built page', () => {
  test.each(['', ...LANGUAGES.map((language) => `.${language}`)])('HTML + JS + CSS of a first visit stay under 10 KB gzipped (budget: 50 KB): index%s.html', (suffix) => {
    const page = path.join(BUILT, `index${suffix}.html`);
    const html = fs.readFileSync(page, 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\/checkout\/assets\/([^"]+)"/g)].map((m) => path.join(BUILT, 'assets', m[1]));
    expect(assets).toHaveLength(2);
    const gzipped = [page, ...assets].reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThan(10 * 1024);
  });

  test('each language\'s page carries its own words and none of another language\'s', () => {
    const german = fs.readFileSync(path.join(BUILT, 'index.de.html'), 'utf8');
    expect(german).toContain('<html lang="de" dir="ltr">');
    expect(german).toContain('Kartennummer');
    expect(german).not.toContain('Card number');
    expect(german).not.toContain('رقم البطاقة');
    expect(fs.readFileSync(path.join(BUILT, 'index.ar.html'), 'utf8')).toContain('<html lang="ar" dir="rtl">');
    // The script and style sheet hold no words: one of each for every language.
    const script = fs.readFileSync(path.join(BUILT, 'assets', assetNames().find((n) => n.endsWith('.js'))!), 'utf8');
    expect(script).not.toMatch(/Card number|Kartennummer|Your card was declined/);
  });

  test('the script carries the checkout operations document byte for byte (the server allow-lists it)', () => {
    const document = fs.readFileSync(path.join(PROJECT_ROOT, 'schema/operations/checkout.graphql'), 'utf8');
    const script = fs.readFileSync(path.join(BUILT, 'assets', assetNames().find((n) => n.endsWith('.js'))!), 'utf8');
    // esbuild writes the text as a template literal; the document has nothing a template would escape.
    expect(document).not.toMatch(/[`\\]|\$\{/);
    expect(script).toContain('`' + document + '`');
  });
});
