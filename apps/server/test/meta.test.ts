import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { loadTerms } from '../src/modules/meta/legal.routes.js';
import { Client, startTestServer, type TestServer } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('GET /api/meta/version', () => {
  it('answers the product version without sign-in', async () => {
    const response = await new Client(server.baseUrl).get('/api/meta/version');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: 'v1.0.3' });
  });

  it('answers 404 with a JSON error for an unknown API path', async () => {
    const response = await new Client(server.baseUrl).get('/api/nope');
    expect(response.status).toBe(404);
    expect(response.body.error).toMatch(/no route/);
  });
});

describe('GET /api/meta/terms (issue 16 §5, decision 025)', () => {
  it('answers the shipped default terms without sign-in', async () => {
    const response = await new Client(server.baseUrl).get('/api/meta/terms');
    expect(response.status).toBe(200);
    expect(response.body.source).toBe('default');
    expect(response.body.text).toMatch(/^# Terms and Conditions/);
    expect(response.body.text).toContain('Bilan keeps no password');
    expect(response.body.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("serves the operator's file from BILAN_TERMS_FILE, and refuses to start when it cannot be read", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bilan-terms-'));
    const file = join(dir, 'terms.md');
    writeFileSync(file, '# AGB der Muster Treuhand AG\n\nGerichtsstand ist Zürich.\n');
    const own = await startTestServer({ BILAN_TERMS_FILE: file });
    try {
      const response = await new Client(own.baseUrl).get('/api/meta/terms');
      expect(response.body).toMatchObject({ source: 'operator', text: '# AGB der Muster Treuhand AG\n\nGerichtsstand ist Zürich.' });
    } finally {
      await own.close();
    }
    // buildApp reads the file with loadTerms before it listens: the start stops with the path.
    expect(() => loadTerms(join(dir, 'missing.md'))).toThrow(/BILAN_TERMS_FILE: cannot read .*missing\.md/);
    expect(() => loadConfig({ BILAN_TERMS_FILE: '' })).toThrow(/BILAN_TERMS_FILE/);
  });
});
