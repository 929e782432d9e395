/**
 * Drives the real single sign-on over HTTP, as a browser would: Bilan → built-in OpenID provider
 * (sign-in form) → back to /sso/{provider}/redirect → /napi/auth/{provider}/redirect. Cookies are
 * kept in a small jar; redirects are followed by hand so each hop is visible.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(header) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export async function browse(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } });
  jar.store(response);
  return response;
}

export interface SsoResult {
  status: number;
  body: any;
  jar: CookieJar;
  /** The /sso/{provider}/redirect URL the provider sent the browser to. */
  callbackUrl: URL;
  /** The Set-Cookie headers of the final answer. */
  setCookies: string[];
}

/**
 * Runs the whole sign-in. `instance` is the uuid (login) or the new name (sign-up). Returns the
 * answer of GET /napi/auth/{provider}/redirect.
 */
export async function signInThroughLocalIdp(
  baseUrl: string,
  options: {
    provider?: string;
    instance: string;
    isSignup?: boolean;
    email: string;
    name: string;
    jar?: CookieJar;
    /** Extra headers of the final call to Bilan (e.g. a user agent). */
    headers?: Record<string, string>;
  },
): Promise<SsoResult> {
  const provider = options.provider ?? 'google';
  const jar = options.jar ?? new CookieJar();
  const query = new URLSearchParams({ instance: options.instance });
  if (options.isSignup) query.set('isSignup', 'true');
  const start = await browse(jar, `${baseUrl}/napi/auth/${provider}/url?${query}`);
  if (start.status !== 200) throw new Error(`url: ${start.status} ${await start.text()}`);
  let next = new URL(((await start.json()) as { url: string }).url);
  let callbackUrl: URL | undefined;
  for (let hop = 0; hop < 10 && !callbackUrl; hop += 1) {
    const response = await browse(jar, next.href);
    if (response.status === 200 && next.pathname.includes('/interaction/')) {
      const html = await response.text();
      const action = /action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form in interaction page: ${html.slice(0, 200)}`);
      const post = await browse(jar, new URL(action, baseUrl).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: options.email, name: options.name }).toString(),
      });
      next = new URL(post.headers.get('location')!, baseUrl);
    } else if (response.status >= 300 && response.status < 400) {
      next = new URL(response.headers.get('location')!, next);
    } else {
      throw new Error(`unexpected ${response.status} at ${next.href}: ${(await response.text()).slice(0, 300)}`);
    }
    if (next.pathname === `/sso/${provider}/redirect`) callbackUrl = next;
  }
  if (!callbackUrl) throw new Error('the provider never redirected back');
  const finish = await browse(jar, `${baseUrl}/napi/auth/${provider}/redirect${callbackUrl.search}`, { headers: options.headers ?? {} });
  const text = await finish.text();
  return { status: finish.status, body: text ? JSON.parse(text) : undefined, jar, callbackUrl, setCookies: finish.headers.getSetCookie() };
}
