// Builds the admin console into dist/admin-console/ (run by `npm run build`):
//   assets/admin.<hash>.js|css   GraphiQL 3 with React 18 and our ready-made operations, bundled and minified by
//                                esbuild from npm packages (nothing comes from a CDN); the name changes with the
//                                content, so browsers may cache them for a year
//   index.html                   the page shell, pointing at those names
// and a .gz and .br twin of every file, so the server never compresses per request.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { buildPageAssets } from '../shared/build-page-assets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(root, 'dist/admin-console');
const ASSET_PATH = '/admin/assets/';

const { names, write } = await buildPageAssets({
  out,
  assetPath: ASSET_PATH,
  prefix: 'admin',
  entryPoints: { admin: path.join(here, 'browser/main.tsx') },
  esbuildOptions: { jsx: 'automatic', define: { 'process.env.NODE_ENV': '"production"' } },
  brotliQuality: 9,
});

const html = fs
  .readFileSync(path.join(here, 'index.html'), 'utf8')
  .replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in names)) throw new Error(`no value for {{${key}}}`);
    return names[key];
  });
write('index.html', html);

const sizes = ['js', 'css'].map((ext) => fs.statSync(path.join(out, names[ext].replace(ASSET_PATH, 'assets/') + '.gz')).size);
console.log(`admin-console: ${sizes[0] + sizes[1]} bytes gzipped (JS+CSS) -> dist/admin-console`);

// Bull Board's page (/admin/queues) links IBM Plex from fonts.googleapis.com: our CSP blocks it and an admin
// page should not tell another host who opens it. Its template is copied without that link (the page falls
// back to the system's sans-serif and monospace fonts); any other address off our origin fails the build.
const require = createRequire(import.meta.url);
const boardTemplate = fs.readFileSync(path.join(path.dirname(require.resolve('@bull-board/ui/package.json')), 'dist/index.ejs'), 'utf8');
const localTemplate = boardTemplate.replace(/[ \t]*<link href="https:\/\/fonts\.googleapis\.com\/[^"]*" rel="stylesheet">\n?/g, '');
if (/https?:\/\//.test(localTemplate)) throw new Error('the Bull Board template loads something from another host: update this step');
fs.mkdirSync(path.join(out, 'queue-views'), { recursive: true });
fs.writeFileSync(path.join(out, 'queue-views/index.ejs'), localTemplate);
