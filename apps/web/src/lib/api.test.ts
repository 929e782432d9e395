import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, setAccessToken, withQuery } from './api';

const respond = (status: number, body: string) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(body, { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
});

describe('api transport', () => {
  it('sends JSON with the bearer header once a token is set', async () => {
    const fetch = respond(200, '{"ok":true}');
    vi.stubGlobal('fetch', fetch);
    setAccessToken('t0k');
    await expect(api.post('/api/accounting/account/detail', { id: 1 })).resolves.toEqual({ ok: true });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"id":1}');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer t0k');
  });

  it('sends no authorization header without a token', async () => {
    const fetch = respond(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await api.get('/api/meta/version');
    expect((fetch.mock.calls[0]?.[1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('raises failures with the status and the parsed JSON body (spec §8)', async () => {
    vi.stubGlobal('fetch', respond(404, '{"error":"Instance not found","err":"Instance not found"}'));
    const failure = await api.post('/napi/instance/exists', { name: 'x' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
    expect((failure as ApiError).body).toEqual({ error: 'Instance not found', err: 'Instance not found' });
  });

  it('fills path parameters and appends the query of a declared route', async () => {
    const fetch = respond(200, '{"url":"https://idp.example/auth"}');
    vi.stubGlobal('fetch', fetch);
    await api.get('/napi/auth/{provider}/url', { params: { provider: 'a/b' }, query: { instance: 'x y' } });
    expect(fetch.mock.calls[0]?.[0]).toBe('/napi/auth/a%2Fb/url?instance=x+y');
  });

  it('builds query strings without undefined values', () => {
    expect(withQuery('/napi/auth/google/url', { instance: 'a b', isSignup: undefined })).toBe('/napi/auth/google/url?instance=a+b');
    expect(withQuery('/x', {})).toBe('/x');
  });
});
