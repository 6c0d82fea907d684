// Bundles the built operations CLI (dist/src/apps/cli.js) into dist/bundle/cli.js, one file with the libraries it
// loads (run by `npm run build`, after tsc; `npm run cli` runs it). Node then reads and compiles one file instead of
// resolving and reading some two thousand, which takes a sixth off a CLI call (docs/decisions/0027-starts.md).
// The service is not bundled: it starts the embedded database first, a tenth of a second in, and one file of its size
// takes Node half a second to compile before any of it runs.
//
// The bundle is of tsc's output, not of the TypeScript sources: tsc writes the decorators' type metadata that
// MikroORM reads, which esbuild does not. Names are kept (`keepNames`): MikroORM names entities after their classes,
// and esbuild would otherwise rename a class whose name another module also uses.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/bundle');

/**
 * Left to Node's own loading, from node_modules:
 *  - what reads files beside its own code at run time (PGlite's WebAssembly, bull's Lua scripts, pino's transport
 *    threads) or is loaded only on first use by a command that needs it (the migrator, the mailer, the QR code);
 *  - the drivers knex and MikroORM name for other databases, which are not installed.
 */
const EXTERNAL = [
  '@electric-sql/pglite', 'bull', 'pino', 'pino-pretty', 'thread-stream', '@opentelemetry/*', '@mikro-orm/migrations', 'esbuild',
  'nodemailer', 'qrcode',
  'pg-native', 'pg-query-stream', 'mysql', 'mysql2', 'mariadb', 'sqlite3', 'better-sqlite3', 'libsql', '@libsql/*', 'oracledb', 'tedious',
  '@mikro-orm/entity-generator', '@mikro-orm/seeder', '@mikro-orm/cli', '@mikro-orm/reflection', '@mikro-orm/mongodb', '@mikro-orm/sqlite',
  '@mikro-orm/mysql', '@mikro-orm/mariadb', '@mikro-orm/mssql', '@mikro-orm/libsql', '@mikro-orm/better-sqlite',
  'class-validator', 'bufferutil', 'utf-8-validate',
];

/**
 * MikroORM reads its own version from `../../package.json` beside its sources (and only then from `../package.json`)
 * and refuses to start when another @mikro-orm package differs from it; from dist/bundle/ that path would be ours.
 */
const mikroOrmVersion = {
  name: 'mikro-orm-version',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/\.\.\/package\.json$/ }, ({ importer }) =>
      importer.includes(`${path.sep}@mikro-orm${path.sep}core${path.sep}`) ? { path: path.join(root, 'node_modules/@mikro-orm/core/package.json') } : undefined,
    );
  },
};

fs.rmSync(out, { recursive: true, force: true });
await esbuild.build({
  entryPoints: {
    cli: path.join(root, 'dist/src/apps/cli.js'),
    // Started as a thread by embedded-postgres.ts, from beside itself, when no service holds the embedded database.
    'embedded-worker': path.join(root, 'dist/src/platform/db/embedded-worker.js'),
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  keepNames: true,
  external: EXTERNAL,
  // tsc's source maps are not code: a migration is required by name from its folder, which esbuild reads whole.
  loader: { '.map': 'empty' },
  plugins: [mikroOrmVersion],
  logLevel: 'error',
});
