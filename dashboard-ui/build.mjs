// Builds the seller dashboard into dist/dashboard-ui/ (run by `npm run build`):
//   assets/dashboard.<hash>.js|css   bundled and minified by esbuild (plain TypeScript and the DOM, no
//                                    framework); the name changes with the content, so browsers may cache
//                                    them for a year
//   index.html                        the one page shell of every /dashboard/... address
// and a .gz and .br twin of every file, so the server never compresses per request.
// schema/operations/seller-dashboard.graphql is bundled as its exact text: the server allow-lists SignUp
// and SignIn without a session by that document, byte for byte.
// The first load (HTML+JS+CSS, gzipped) is written to first-load.json; test/browser/dashboard.test.ts holds
// it under 150 KB.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPageAssets } from '../src/shared/build-page-assets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'dist/dashboard-ui');
const ASSET_PATH = '/dashboard/assets/';

const { names, write } = await buildPageAssets({
  out,
  assetPath: ASSET_PATH,
  prefix: 'dashboard',
  entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/dashboard.css')],
});

const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const html = fs.readFileSync(path.join(here, 'index.html'), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, key) => {
  const value = { style: names.css, script: names.js }[key];
  if (value === undefined) throw new Error(`no value for {{${key}}}`);
  return escape(value);
});
write('index.html', html);

const firstLoad = ['index.html', names.js, names.css].map((name) => path.join(out, name.replace(ASSET_PATH, 'assets/')));
const gzipped = firstLoad.reduce((sum, file) => sum + fs.statSync(`${file}.gz`).size, 0);
const raw = firstLoad.reduce((sum, file) => sum + fs.statSync(file).size, 0);
fs.writeFileSync(path.join(out, 'first-load.json'), JSON.stringify({ raw, gzipped }) + '\n');
console.log(`dashboard-ui: ${raw} bytes (HTML+JS+CSS), ${gzipped} bytes gzipped -> dist/dashboard-ui`);
