/**
 * HTTP transport, nothing else: JSON in and out, a bearer header when a token is set (spec §7),
 * and failures raised as ApiError with the status and the parsed JSON body (spec §8). It never
 * shows a notification and never navigates; callers decide what a failure means.
 *
 * Paths, query, bodies and answers are typed from `api-schema.d.ts`, which `npm run gen:api`
 * generates from the server's OpenAPI document: a response shape is written once, in the route's
 * zod schema, and a call the server does not declare does not compile.
 */
import type { paths } from './api-schema';
import { currentLanguage } from './i18n';

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
  // The server answers field messages in the UI's language (issue 17 §3).
  const all: Record<string, string> = { accept: 'application/json', 'accept-language': currentLanguage(), ...extra };
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

/**
 * A binary answer (PDF, XML, XLSX, CSV) with the bearer token: a GET, or a POST of `body` as JSON.
 * Answers the response for its blob and headers; a failure raises ApiError with the parsed body,
 * as the JSON calls do.
 */
export async function fetchFile(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  const extra: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(path, { method, headers: headers(extra), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!response.ok) throw new ApiError(response.status, parseBody(await response.text()), method, path);
  return response;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** The header the server honours on its write POSTs (docs/api.md "Idempotency", decision 013). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A fresh key for one logical write: 128 random bits as 32 hex characters. From
 * `crypto.getRandomValues`, which, unlike `crypto.randomUUID`, also exists outside secure contexts.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a POST carries a key, and so may be retried: those of the business API. The server
 * honours the key on every /api POST that writes and ignores it on the others (reads, safe to
 * repeat); /napi calls (sign-in, refresh, sessions) are never repeated behind the caller's back.
 */
const takesIdempotencyKey = (method: string, path: string): boolean => method === 'POST' && path.startsWith('/api/');

/** Pause before the one retry after a dropped connection, and between asks while the first still runs. */
export const RETRY_DELAYS_MS = { network: 300, inProgress: [250, 500, 1000, 2000] } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure of the connection itself (fetch rejects with TypeError), not an abort by the caller. */
const isNetworkFailure = (error: unknown): boolean => error instanceof TypeError;

const isInProgress = (response: Response, body: unknown): boolean =>
  response.status === 409 && typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'idempotency_in_progress';

/**
 * One logical call. A write POST gets a fresh Idempotency-Key; when its connection drops, it is sent
 * once more with the same key, so the server books it at most once and answers the first result.
 * If that retry finds the first attempt still running (409 `idempotency_in_progress`), it asks
 * again a few times, with the same key, until the stored answer is there.
 */
async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const key = takesIdempotencyKey(method, path) ? newIdempotencyKey() : undefined;
  const extra: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (key) extra[IDEMPOTENCY_HEADER] = key;
  const send = () =>
    fetch(path, {
      method,
      headers: headers(extra),
      credentials: 'same-origin',
      signal: options.signal ?? null,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  let response: Response;
  let retried = false;
  try {
    response = await send();
  } catch (error) {
    if (!key || !isNetworkFailure(error)) throw error;
    await sleep(RETRY_DELAYS_MS.network);
    response = await send();
    retried = true;
  }
  let parsed = parseBody(await response.text());
  for (const delay of retried ? RETRY_DELAYS_MS.inProgress : []) {
    if (!isInProgress(response, parsed)) break;
    await sleep(delay);
    response = await send();
    parsed = parseBody(await response.text());
  }
  if (!response.ok) throw new ApiError(response.status, parsed, method, path);
  return parsed as T;
}

/** Builds `path?key=value…`, leaving out undefined and null values. */
export function withQuery(path: string, query: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

type Method = 'get' | 'post';

/** The operation `paths[P]` declares for a method (openapi-typescript writes `get?: never` for none). */
type Operation<P, M extends Method> = P extends keyof paths ? (paths[P] extends { [K in M]: infer Op } ? Op : never) : never;

/** Paths that have a GET (POST) operation. */
export type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];
export type PostPath = { [P in keyof paths]: paths[P] extends { post: object } ? P : never }[keyof paths];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : unknown;
type Success<Op> = Op extends { responses: infer R }
  ? 200 extends keyof R
    ? JsonOf<R[200]>
    : 201 extends keyof R
      ? JsonOf<R[201]>
      : unknown
  : never;

/** The JSON a route answers with on success (its 200, else 201, schema), e.g. `ApiResult<'post', '/api/invoice/detail'>`. */
export type ApiResult<M extends Method, P extends M extends 'get' ? GetPath : PostPath> = Success<Operation<P, M>>;

/** The JSON body a POST route takes. */
export type ApiBody<P extends PostPath> =
  Operation<P, 'post'> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : Operation<P, 'post'> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : undefined;

type QueryOption<Op> = Op extends { parameters: { query: infer Q } }
  ? { query: Q }
  : Op extends { parameters: { query?: infer Q } }
    ? [Exclude<Q, undefined>] extends [never]
      ? object
      : { query?: Exclude<Q, undefined> }
    : object;
type ParamsOption<Op> = Op extends { parameters: { path: infer X } } ? ([X] extends [never | undefined] ? object : { params: X }) : object;
type Options<Op> = RequestOptions & QueryOption<Op> & ParamsOption<Op>;
/** Options are required only when the route has required query or path parameters. */
type OptionsArgs<Op> = object extends Options<Op> ? [options?: Options<Op>] : [options: Options<Op>];
type PostArgs<Op> =
  Op extends { requestBody: { content: { 'application/json': infer B } } }
    ? [body: B, ...options: OptionsArgs<Op>]
    : Op extends { requestBody?: { content: { 'application/json': infer B } } }
      ? [body?: B, ...options: OptionsArgs<Op>]
      : [body?: Record<string, never>, ...options: OptionsArgs<Op>];

type QueryValue = string | number | boolean | undefined | null;
interface UrlOptions {
  query?: Record<string, QueryValue>;
  params?: Record<string, string | number>;
}

/** `/x/{id}` with `params` filled in (URI-encoded) and `query` appended. */
function urlOf(path: string, { query, params }: UrlOptions = {}): string {
  const filled = params ? path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name]))) : path;
  return query ? withQuery(filled, query) : filled;
}

export const api = {
  /** GET a declared path; `query` and `params` are typed from the route's schema. */
  get: <P extends GetPath>(path: P, ...[options]: OptionsArgs<Operation<P, 'get'>>): Promise<Success<Operation<P, 'get'>>> =>
    request('GET', urlOf(path, options as UrlOptions), undefined, options),
  /** POST a declared path with its JSON body (`{}` when the route takes none). */
  post: <P extends PostPath>(path: P, ...[body, options]: PostArgs<Operation<P, 'post'>>): Promise<Success<Operation<P, 'post'>>> =>
    request('POST', urlOf(path, options as UrlOptions), body ?? {}, options as RequestOptions | undefined),
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
 * contract as `api.post`, Idempotency-Key and the one retry after a dropped connection included:
 * resolves with the parsed JSON, rejects with ApiError.
 */
export async function uploadText<P extends PostPath>(
  path: P,
  text: string,
  options: UploadOptions & QueryOption<Operation<P, 'post'>>,
): Promise<Success<Operation<P, 'post'>>> {
  const url = urlOf(path, options as UrlOptions);
  const key = takesIdempotencyKey('POST', url) ? newIdempotencyKey() : undefined;
  try {
    return await uploadOnce<Success<Operation<P, 'post'>>>(url, text, options, key);
  } catch (error) {
    if (!key || !isNetworkFailure(error)) throw error;
    await sleep(RETRY_DELAYS_MS.network);
    return uploadOnce<Success<Operation<P, 'post'>>>(url, text, options, key);
  }
}

function uploadOnce<T>(url: string, text: string, options: UploadOptions, key: string | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers({ 'content-type': options.contentType, ...(key ? { [IDEMPOTENCY_HEADER]: key } : {}) }))) {
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
      else reject(new ApiError(xhr.status, parsed, 'POST', url));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(text);
  });
}
