// Builds the hosted checkout page into dist/checkout-ui/ (run by `npm run build`):
//   assets/checkout.<hash>.js|css   bundled and minified by esbuild; the name changes with the content,
//                                    so the server can let browsers cache them for a year
//   index.<language>.html            the page shell in each language, pointing at those names
//   not-found.<language>.html, unavailable.<language>.html  the 404 and 503 pages
//   index.html, not-found.html, unavailable.html           the English ones
// and a .gz and .br twin of every file, so the server never compresses per request.
// schema/operations/checkout.graphql is bundled as its exact text (esbuild's `text` loader): the server
// allow-lists callers without credentials by that document, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { buildPageAssets } from '../src/shared/build-page-assets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'dist/checkout-ui');
const ASSET_PATH = '/checkout/assets/';

const { names, write } = await buildPageAssets({
  out,
  assetPath: ASSET_PATH,
  prefix: 'checkout',
  entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/checkout.css')],
});

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const template = (name) => fs.readFileSync(path.join(here, name), 'utf8');

// The catalogues and their compiler are TypeScript (src/shared/customer-language/): bundled for this script alone.
const languageModule = await esbuild.build({
  stdin: {
    contents: `export * from './languages'; export * from './page-messages';`,
    resolveDir: path.join(root, 'src/shared/customer-language'),
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'warning',
});
const { LANGUAGES, LANGUAGE_NAMES, PSEUDO_LANGUAGE, directionOf, checkoutMessages, staticText } = await import(
  `data:text/javascript;base64,${Buffer.from(languageModule.outputFiles[0].contents).toString('base64')}`
);

/**
 * `{{name}}` is a value, escaped; `{{t:key}}` the language's text for a message without arguments; `{{{name}}}` a
 * value written as it is (markup this script made).
 */
const fill = (text, language, values) =>
  text.replace(/\{\{\{(\w+)\}\}\}|\{\{t:([\w.]+)\}\}|\{\{(\w+)\}\}/g, (_, raw, key, name) => {
    if (key) return escape(staticText(language, key));
    const value = values[raw ?? name];
    if (value === undefined) throw new Error(`no value for {{${raw ?? name}}}`);
    return raw ? value : escape(value);
  });

const languageOptions = (current) =>
  LANGUAGES.map((language) => `<option value="${language}" lang="${language}"${language === current ? ' selected' : ''}>${escape(LANGUAGE_NAMES[language])}</option>`).join('');

// The messages the script shows, compiled (page-messages.ts), in a data block: JSON, with `<` escaped so it cannot end
// the block. A message the HTML holds and no script names is left out.
const scripts = fs.readdirSync(path.join(here, 'src')).map((name) => fs.readFileSync(path.join(here, 'src', name), 'utf8')).join('\n');
const htmlOnly = [...template('index.html').matchAll(/\{\{t:([\w.]+)\}\}/g)].map((m) => m[1]).filter((key) => !scripts.includes(`'${key}'`));
const messagesJson = (language) =>
  JSON.stringify(Object.fromEntries(Object.entries(checkoutMessages(language)).filter(([key]) => !htmlOnly.includes(key)))).replace(/</g, '\\u003c');

// One page per language (and the pseudo-language of the tests): each carries its own words and nothing of the others.
// index.html and its 404 and 503 twins are the English ones, for whatever has no language to go by.
const message = template('message.html');
const pages = ['index', 'not-found', 'unavailable'];
for (const language of [...LANGUAGES, PSEUDO_LANGUAGE]) {
  const base = { lang: language, dir: directionOf(language), style: names.css };
  const written = {
    index: fill(template('index.html'), language, { ...base, script: names.js, messages: messagesJson(language), languages: languageOptions(language) }),
    'not-found': fill(message, language, {
      ...base,
      title: staticText(language, 'page.notFoundTitle'),
      heading: staticText(language, 'page.notFoundTitle'),
      text: staticText(language, 'page.notFoundText'),
    }),
    unavailable: fill(message, language, {
      ...base,
      title: staticText(language, 'page.unavailableTitle'),
      heading: staticText(language, 'page.unavailableHeading'),
      text: staticText(language, 'page.unavailableText'),
    }),
  };
  for (const page of pages) {
    write(`${page}.${language}.html`, written[page]);
    if (language === 'en') write(`${page}.html`, written[page]);
  }
}

// What a first visit transfers, per language: the page, its script and its style sheet, gzipped.
const gzippedSize = (name) => fs.statSync(path.join(out, `${name.replace(ASSET_PATH, 'assets/')}.gz`)).size;
const assets = gzippedSize(names.js) + gzippedSize(names.css);
const weights = LANGUAGES.map((language) => `${language} ${gzippedSize(`index.${language}.html`) + assets}`);
console.log(`checkout-ui: first visit gzipped (HTML+JS+CSS), bytes: ${weights.join(', ')} -> dist/checkout-ui`);
