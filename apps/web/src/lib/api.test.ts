import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, setAccessToken, uploadText, withQuery } from './api';

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

const keyOf = (init?: RequestInit) => (init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const dropped = () => Promise.reject(new TypeError('Failed to fetch'));

// These tests send bodies the server would refuse: only the client's headers and retries matter here.
const loosePost = api.post as unknown as (path: string, body: unknown) => Promise<unknown>;

describe('Idempotency-Key and the retry after a dropped connection (decision 013)', () => {
  it('sends a fresh key with every business POST, none with GETs and session calls', async () => {
    const fetch = respond(200, '{}');
    vi.stubGlobal('fetch', fetch);
    await loosePost('/api/accounting/entry/insert', { data: {} });
    await loosePost('/api/accounting/entry/insert', { data: {} });
    await api.get('/api/analytics/counts');
    await loosePost('/napi/auth/refresh', {});
    const keys = fetch.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys.slice(2)).toEqual([undefined, undefined]);
  });

  it('retries a write once with the same key when the connection drops, and answers the retry', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit): Promise<Response> => json(200, { id: 7 }));
    fetch.mockImplementationOnce(dropped);
    vi.stubGlobal('fetch', fetch);
    await expect(loosePost('/api/invoice/status/change', { uuid: 'u', status: 3 })).resolves.toEqual({ id: 7 });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [first, second] = fetch.mock.calls.map(([, init]) => init);
    expect(keyOf(second)).toBe(keyOf(first));
    expect(second?.body).toBe(first?.body);
  });

  it('retries only once, and never a session call, a GET or an abort', async () => {
    const failing = vi.fn(dropped);
    vi.stubGlobal('fetch', failing);
    await expect(loosePost('/api/accounting/entry/insert', {})).rejects.toBeInstanceOf(TypeError);
    expect(failing).toHaveBeenCalledTimes(2);
    failing.mockClear();
    await expect(loosePost('/napi/auth/refresh', {})).rejects.toBeInstanceOf(TypeError);
    await expect(api.get('/api/analytics/counts')).rejects.toBeInstanceOf(TypeError);
    expect(failing).toHaveBeenCalledTimes(2);
    const aborted = vi.fn(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    vi.stubGlobal('fetch', aborted);
    await expect(loosePost('/api/accounting/entry/insert', {})).rejects.toMatchObject({ name: 'AbortError' });
    expect(aborted).toHaveBeenCalledTimes(1);
  });

  it('after a retry, asks again with the same key while the first attempt is still in progress', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit): Promise<Response> => json(200, { ok: true }));
    fetch.mockImplementationOnce(dropped).mockImplementationOnce(async () => json(409, { error: 'still running', code: 'idempotency_in_progress' }));
    vi.stubGlobal('fetch', fetch);
    await expect(loosePost('/api/payable/pay', { uuid: 'u' })).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(new Set(fetch.mock.calls.map(([, init]) => keyOf(init))).size).toBe(1);
  });

  it('raises any other answer of the retry as it is, a 409 in progress of a first attempt included', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit): Promise<Response> => json(409, { error: 'still running', code: 'idempotency_in_progress' }));
    vi.stubGlobal('fetch', fetch);
    await expect(loosePost('/api/payable/pay', {})).rejects.toMatchObject({ status: 409 });
    expect(fetch).toHaveBeenCalledTimes(1);
    fetch.mockImplementationOnce(dropped).mockImplementationOnce(async () => json(422, { error: 'reused', code: 'idempotency_key_reused' }));
    fetch.mockClear();
    await expect(loosePost('/api/payable/pay', {})).rejects.toMatchObject({ status: 422 });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('uploadText', () => {
  /** A stand-in for the browser's XMLHttpRequest: each send fails or answers as `outcomes` says. */
  function fakeXhr(outcomes: ('drop' | number)[]) {
    const sent: Record<string, string>[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload: { onprogress?: unknown; onload?: () => void } = {};
      onload?: () => void;
      onerror?: () => void;
      onabort?: () => void;
      private readonly headers: Record<string, string> = {};
      open() {}
      setRequestHeader(name: string, value: string) {
        this.headers[name] = value;
      }
      abort() {}
      send() {
        sent.push(this.headers);
        const outcome = outcomes.shift();
        queueMicrotask(() => {
          if (outcome === 'drop' || outcome === undefined) return this.onerror?.();
          this.status = outcome;
          this.responseText = '{"imported":1}';
          this.onload?.();
        });
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    return sent;
  }

  it('sends a key and retries a dropped upload once with the same key', async () => {
    const sent = fakeXhr(['drop', 200]);
    await expect(uploadText('/api/accounting/import/chart', 'a,b', { contentType: 'text/csv' })).resolves.toEqual({ imported: 1 });
    expect(sent).toHaveLength(2);
    expect(sent[0]!['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(sent[1]!['Idempotency-Key']).toBe(sent[0]!['Idempotency-Key']);
  });

  it('gives up after the one retry', async () => {
    const sent = fakeXhr(['drop', 'drop', 200]);
    await expect(uploadText('/api/accounting/import/chart', 'a,b', { contentType: 'text/csv' })).rejects.toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(2);
  });
});
