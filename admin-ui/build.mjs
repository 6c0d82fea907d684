// Builds the admin console (the back office, with GraphiQL one click away) into dist/admin-console/ (run by
// `npm run build`):
//   assets/admin.<hash>.js|css        the back office (React 18): its first load, with the shared chunks it imports
//   assets/graphiql.<hash>.js         GraphiQL 3 and the ready-made operations: an entry point of its own, imported
//                                      by the back office only when the query console is opened
//   assets/graphiql-style.<hash>.css  GraphiQL's style sheet, linked at that same moment
//   assets/chunk.<hash>.js            code both share (React)
//   index.html                        the page shell, pointing at those names
// Everything is bundled and minified by esbuild from npm packages (nothing comes from a CDN); each name carries a
// hash of its content, so browsers may cache it for a year; each file has a .gz and .br twin, so the server never
// compresses per request. The first load (HTML, the back office's JS with the chunks it imports, its CSS; gzipped)
// is written to first-load.json: test/browser/back-office.test.ts holds it under 250 KB.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const out = path.join(root, 'dist/admin-console');
const ASSET_PATH = '/admin/assets/';
export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

const result = await esbuild.build({
  entryPoints: {
    admin: path.join(here, 'src/main.tsx'),
    graphiql: path.join(here, 'src/graphiql-console.tsx'),
    'graphiql-style': path.join(here, 'src/graphiql-style.css'),
  },
  bundle: true,
  minify: true,
  format: 'esm',
  splitting: true,
  target: ['chrome100', 'edge100', 'firefox100', 'safari15'],
  loader: { '.graphql': 'text' },
  legalComments: 'none',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  entryNames: '[name].[hash]',
  chunkNames: 'chunk.[hash]',
  outdir: path.join(out, 'assets'),
  metafile: true,
  write: false,
  logLevel: 'warning',
});

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'assets'), { recursive: true });

const write = (relative, content) => {
  const file = path.join(out, relative);
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
};

// esbuild's names (name.BASE32.ext) become name.<12 hex of SHA-256>.ext, the form of our other pages; the imports
// between chunks are rewritten to the new names. esbuild's hash already covers the chunks a file imports, so a hash
// of each file as esbuild wrote it changes whenever anything it loads changes.
const renamed = new Map();
for (const file of result.outputFiles) {
  const base = path.basename(file.path);
  const [name, , ext] = base.split('.');
  renamed.set(base, `${name}.${createHash('sha256').update(file.contents).digest('hex').slice(0, 12)}.${ext}`);
}
const rewrite = (text) => text.replace(/[\w-]+\.[A-Z0-9]{8}\.(js|css)/g, (base) => renamed.get(base) ?? base);
for (const file of result.outputFiles) write(`assets/${renamed.get(path.basename(file.path))}`, rewrite(file.text));

const outputs = result.metafile.outputs;
const outputOf = (entry) => Object.entries(outputs).find(([, o]) => o.entryPoint && path.resolve(root, o.entryPoint) === path.join(here, entry));
const publicName = (outputPath) => ASSET_PATH + renamed.get(path.basename(outputPath));
const [adminJs, admin] = outputOf('src/main.tsx');
const [graphiqlCss] = outputOf('src/graphiql-style.css');

/** The chunks the back office loads before it runs (static imports, transitively): part of the first load. */
const staticChunks = new Set();
const visit = (outputPath) => {
  for (const imported of outputs[outputPath].imports) {
    if (imported.kind !== 'import-statement' || staticChunks.has(imported.path)) continue;
    staticChunks.add(imported.path);
    visit(imported.path);
  }
};
visit(adminJs);

const names = {
  js: publicName(adminJs),
  css: publicName(admin.cssBundle),
  graphiqlCss: publicName(graphiqlCss),
  preloads: [...staticChunks].map((chunk) => `    <link rel="modulepreload" href="${publicName(chunk)}" />`).join('\n'),
};
const html = fs.readFileSync(path.join(here, 'index.html'), 'utf8').replace(/\{\{(\w+)\}\}/g, (_, key) => {
  if (!(key in names)) throw new Error(`no value for {{${key}}}`);
  return names[key];
});
write('index.html', html);

const firstLoad = ['index.html', names.js, names.css, ...[...staticChunks].map(publicName)].map((name) => path.join(out, name.replace(ASSET_PATH, 'assets/')));
const gzipped = firstLoad.reduce((sum, file) => sum + fs.statSync(`${file}.gz`).size, 0);
const raw = firstLoad.reduce((sum, file) => sum + fs.statSync(file).size, 0);
const graphiqlOnOpen = [...Object.keys(outputs)].filter((o) => !firstLoad.some((f) => f.endsWith(renamed.get(path.basename(o)))));
const later = graphiqlOnOpen.reduce((sum, o) => sum + fs.statSync(path.join(out, 'assets', `${renamed.get(path.basename(o))}.gz`)).size, 0);
fs.writeFileSync(
  path.join(out, 'first-load.json'),
  JSON.stringify({ raw, gzipped, budget: FIRST_LOAD_BUDGET_BYTES, files: firstLoad.map((f) => path.relative(out, f)), onQueryConsoleOpen: later }) + '\n',
);
console.log(`admin-console: first load ${gzipped} bytes gzipped (HTML+JS+CSS, budget ${FIRST_LOAD_BUDGET_BYTES}); the query console adds ${later} when opened -> dist/admin-console`);
if (gzipped > FIRST_LOAD_BUDGET_BYTES) throw new Error(`the back office's first load is ${gzipped} bytes gzipped, over its budget of ${FIRST_LOAD_BUDGET_BYTES}`);

// Bull Board's page (/admin/queues) links IBM Plex from fonts.googleapis.com: our CSP blocks it and an admin
// page should not tell another host who opens it. Its template is copied without that link (the page falls
// back to the system's sans-serif and monospace fonts); any other address off our origin fails the build.
const require = createRequire(import.meta.url);
const boardTemplate = fs.readFileSync(path.join(path.dirname(require.resolve('@bull-board/ui/package.json')), 'dist/index.ejs'), 'utf8');
const localTemplate = boardTemplate.replace(/[ \t]*<link href="https:\/\/fonts\.googleapis\.com\/[^"]*" rel="stylesheet">\n?/g, '');
if (/https?:\/\//.test(localTemplate)) throw new Error('the Bull Board template loads something from another host: update this step');
fs.mkdirSync(path.join(out, 'queue-views'), { recursive: true });
fs.writeFileSync(path.join(out, 'queue-views/index.ejs'), localTemplate);
