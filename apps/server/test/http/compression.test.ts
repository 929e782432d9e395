/**
 * Compression (issue 18 §1) over real HTTP: the web app's files go precompressed (the .br/.gz the
 * build wrote beside them, byte for byte) with long cache lifetimes for hashed assets; JSON answers
 * above 1 KB are compressed as the client accepts, smaller ones and clients that accept nothing
 * get plain bytes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';

const script = `export const lines = [${Array.from({ length: 200 }, (_, i) => `'line ${i}'`).join(', ')}];\n`;
const dist = mkdtempSync(join(tmpdir(), 'bilan-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), `<!doctype html><html><head><title>Bilan</title></head><body>${'<!-- padding -->'.repeat(100)}<div id="root"></div></body></html>`);
writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), script);
const brotli = brotliCompressSync(script);
writeFileSync(join(dist, 'assets', 'app-1a2b3c.js.br'), brotli);
writeFileSync(join(dist, 'assets', 'app-1a2b3c.js.gz'), gzipSync(script));

let server: TestServer;
let wp: Workplace;
beforeAll(async () => {
  server = await startTestServer({ BILAN_WEB_DIST: dist });
  wp = await createWorkplace(server);
});
afterAll(async () => server?.close());

/** A request without decoding the answer: status, headers and the bytes as sent. */
function raw(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.baseUrl + path, { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the web app files', () => {
  it('sends the precompressed brotli or gzip file the browser accepts, cached for a year, and plain bytes to one that accepts neither', async () => {
    const br = await raw('GET', '/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(brotli)).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await raw('GET', '/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await raw('GET', '/assets/app-1a2b3c.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    // The page itself is revalidated each time (its asset names change with every build).
    const home = await raw('GET', '/', { 'accept-encoding': 'br' });
    expect(home.status).toBe(200);
    expect(home.headers['cache-control']).toBe('no-cache');
    const deepLink = await raw('GET', '/accounting/journal', { 'accept-encoding': 'br' });
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers['cache-control']).toBe('no-cache');
  });
});

describe('API answers', () => {
  it('compresses JSON above 1 KB as the client accepts, and leaves small answers and clients without encodings alone', async () => {
    const auth = { authorization: `Bearer ${wp.token}` };
    const big = await raw('POST', '/api/accounting/account/list', { ...auth, 'accept-encoding': 'br, gzip' }, '{}');
    expect(big.status).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    const plain = await raw('POST', '/api/accounting/account/list', { ...auth }, '{}');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(big.body.length).toBeLessThan(plain.body.length / 3);
    const small = await raw('GET', '/api/meta/version', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
