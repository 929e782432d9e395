/**
 * HTTP transport, nothing else: JSON in and out, a bearer header when a token is set (spec §7),
 * and failures raised as ApiError with the status and the parsed JSON body (spec §8). It never
 * shows a notification and never navigates; callers decide what a failure means.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown, method: string, path: string) {
    super(`${method} ${path} failed with ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** The access token lives in memory only (never in storage): a reload gets a new one by refresh. */
let accessToken: string | null = null;

export const setAccessToken = (token: string | null): void => {
  accessToken = token;
};
export const getAccessToken = (): string | null => accessToken;

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const all: Record<string, string> = { accept: 'application/json', ...extra };
  if (accessToken) all.authorization = `Bearer ${accessToken}`;
  return all;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const init: RequestInit = {
    method,
    headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    credentials: 'same-origin',
    signal: options.signal ?? null,
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const parsed = parseBody(await response.text());
  if (!response.ok) throw new ApiError(response.status, parsed, method, path);
  return parsed as T;
}

/** Builds `path?key=value…`, leaving out undefined values. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options?: RequestOptions) => request<T>('POST', path, body, options),
};

export interface UploadOptions {
  contentType: string;
  /** Fraction 0–1 of the body sent. */
  onUploadProgress?: (fraction: number) => void;
  /** Called once the whole body has been sent and the server is working on it. */
  onUploaded?: () => void;
  signal?: AbortSignal;
}

/**
 * POSTs a text body with XMLHttpRequest, because fetch cannot report upload progress. Same
 * contract as `api.post`: resolves with the parsed JSON, rejects with ApiError.
 */
export function uploadText<T>(path: string, text: string, options: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(headers({ 'content-type': options.contentType }))) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => {
      options.onUploadProgress?.(1);
      options.onUploaded?.();
    };
    xhr.onload = () => {
      const parsed = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      else reject(new ApiError(xhr.status, parsed, 'POST', path));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(text);
  });
}
