// The build step both of our browser pages share (checkout-ui/build.mjs, admin-ui/build.mjs):
// bundle and minify with esbuild, name each asset after a hash of its content (so the server may let
// browsers cache it for a year), and write a .gz and .br twin of every file so nothing is compressed per
// request. Returns the public URL of each asset by extension and the writer for the page's other files.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';

export async function buildPageAssets({ out, assetPath, prefix, entryPoints, esbuildOptions = {}, brotliQuality = 11 }) {
  const result = await esbuild.build({
    entryPoints,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['chrome100', 'edge100', 'firefox100', 'safari15'],
    loader: { '.graphql': 'text' },
    legalComments: 'none',
    outdir: out,
    write: false,
    logLevel: 'warning',
    ...esbuildOptions,
  });

  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });

  const write = (relative, content) => {
    const file = path.join(out, relative);
    fs.writeFileSync(file, content);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality } }));
  };

  const names = {};
  for (const file of result.outputFiles) {
    const ext = path.extname(file.path).slice(1);
    const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 12);
    const name = `${prefix}.${hash}.${ext}`;
    write(`assets/${name}`, file.contents);
    names[ext] = assetPath + name;
  }
  return { names, write };
}
