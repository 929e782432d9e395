/**
 * Precompresses the built web app (issue 18 §1): a brotli (.br) and a gzip (.gz) copy beside every
 * text file of dist/ above 1 KB, so the server (@fastify/static `preCompressed`) sends the smallest
 * one the browser accepts without compressing on each request. Source maps stay as they are: only
 * developer tools fetch them. Prints what it saved.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const TEXT = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.wasm']);

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let brotli = 0;
let count = 0;
for (const path of files(dist)) {
  if (!TEXT.has(extname(path))) continue;
  const bytes = readFileSync(path);
  if (bytes.length <= 1024) continue;
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  writeFileSync(`${path}.br`, br);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  raw += bytes.length;
  brotli += br.length;
  count += 1;
}
console.log(`precompressed ${count} files: ${(raw / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`);
