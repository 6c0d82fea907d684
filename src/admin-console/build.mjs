// Builds the admin console into dist/admin-console/ (run by `npm run build`):
//   assets/admin.<hash>.js|css   GraphiQL 3 with React 18 and our ready-made operations, bundled and minified by
//                                esbuild from npm packages (nothing comes from a CDN); the name changes with the
//                                content, so browsers may cache them for a year
//   index.html                   the page shell, pointing at those names
// and a .gz and .br twin of every file, so the server never compresses per request.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const out = path.join(root, 'dist/admin-console');
const ASSET_PATH = '/admin/assets/';

const result = await esbuild.build({
  entryPoints: { admin: path.join(here, 'browser/main.tsx') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome100', 'edge100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  loader: { '.graphql': 'text' },
  define: { 'process.env.NODE_ENV': '"production"' },
  legalComments: 'none',
  outdir: out,
  write: false,
  logLevel: 'warning',
});

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'assets'), { recursive: true });

function write(relative, content) {
  const file = path.join(out, relative);
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
}

const names = {};
for (const file of result.outputFiles) {
  const ext = path.extname(file.path).slice(1);
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
  const name = `admin.${hash}.${ext}`;
  write(`assets/${name}`, file.contents);
  names[ext] = ASSET_PATH + name;
}

const html = fs
  .readFileSync(path.join(here, 'index.html'), 'utf8')
  .replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!(key in names)) throw new Error(`no value for {{${key}}}`);
    return names[key];
  });
write('index.html', html);

const sizes = ['js', 'css'].map((ext) => fs.statSync(path.join(out, names[ext].replace(ASSET_PATH, 'assets/') + '.gz')).size);
console.log(`admin-console: ${sizes[0] + sizes[1]} bytes gzipped (JS+CSS) -> dist/admin-console`);
