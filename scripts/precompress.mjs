#!/usr/bin/env node
/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every text asset of the H5 build, so the server sends
 * them as they are (@fastify/static `preCompressed`) instead of the raw bytes or compressing per request.
 * Run after `taro build --type h5` (npm run build:h5 does); the folder is LENSMATE_OUT or dist/h5.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';

const root = process.argv[2] || process.env.LENSMATE_OUT || 'dist/h5';
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name)) yield path;
  }
}

let raw = 0;
let brotli = 0;
let count = 0;
for (const path of files(root)) {
  const body = readFileSync(path);
  if (body.length < 1024) continue;
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 10, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
  raw += body.length;
  brotli += br.length;
  count += 1;
}
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
console.log(`precompressed ${count} files in ${root}: ${kb(raw)} raw, ${kb(brotli)} brotli`);
