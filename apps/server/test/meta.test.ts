import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
