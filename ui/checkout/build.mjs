// Builds the hosted checkout page into dist/checkout-ui/ (run by `npm run build`):
//   assets/checkout.<hash>.js|css   bundled and minified by esbuild; the name changes with the content,
//                                    so the server can let browsers cache them for a year
//   index.html                       the page shell, pointing at those names
//   not-found.html, unavailable.html the 404 and 503 pages
// and a .gz and .br twin of every file, so the server never compresses per request.
// schema/operations/checkout.graphql is bundled as its exact text (esbuild's `text` loader): the server
// allow-lists callers without credentials by that document, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPageAssets } from '../../src/shared/build-page-assets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(root, 'dist/checkout-ui');
const ASSET_PATH = '/checkout/assets/';

const { names, write } = await buildPageAssets({
  out,
  assetPath: ASSET_PATH,
  prefix: 'checkout',
  entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/checkout.css')],
});

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (template, values) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return escape(values[key]);
  });
const template = (name) => fs.readFileSync(path.join(here, name), 'utf8');

write('index.html', fill(template('index.html'), { style: names.css, script: names.js }));
const message = template('message.html');
write(
  'not-found.html',
  fill(message, {
    style: names.css,
    title: 'Payment not found',
    heading: 'Payment not found',
    text: 'This payment link is not valid. Please go back to the shop and start the payment again.',
  }),
);
write(
  'unavailable.html',
  fill(message, {
    style: names.css,
    title: 'Checkout unavailable',
    heading: 'Checkout is unavailable',
    text: 'We cannot show this payment right now. Nothing has been charged. Please reload the page in a moment.',
  }),
);

// What a first visit transfers: the page, its script and its style sheet, gzipped.
const firstLoad = ['index.html', names.js, names.css].map((name) => path.join(out, name.replace(ASSET_PATH, 'assets/')));
const gzipped = firstLoad.reduce((sum, file) => sum + fs.statSync(`${file}.gz`).size, 0);
const raw = firstLoad.reduce((sum, file) => sum + fs.statSync(file).size, 0);
console.log(`checkout-ui: ${raw} bytes (HTML+JS+CSS), ${gzipped} bytes gzipped -> dist/checkout-ui`);
