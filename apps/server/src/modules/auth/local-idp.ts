/**
 * The built-in local OpenID provider (DESIGN.md "sign-in"): a real OIDC server (`oidc-provider`)
 * mounted at /oidc that stands in for every provider without configuration, so the embedded start
 * and the tests sign in through the real protocol without secrets. Its sign-in form accepts any
 * e-mail and name. It is off in production unless BILAN_LOCAL_IDP=1.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import type { Configuration, default as Provider } from 'oidc-provider';
import { ssoProviderLabel, ssoProviders, type SsoProvider } from '@bilan/domain';
import { serverSecret } from '../identity/session.service.js';

export const LOCAL_IDP_PATH = '/oidc';

/** Client id of the local IdP that plays `provider`. */
export const localClientId = (provider: SsoProvider) => `bilan-${provider}`;

/** The client secret the app and the local IdP share (one per database). */
export async function localClientSecret(db: Parameters<typeof serverSecret>[0]): Promise<string> {
  return serverSecret(db, 'local-idp-client', () => randomBytes(24).toString('base64url'));
}

interface LocalAccount {
  email: string;
  name: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f6f8;color:#1f2328;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #dde1e6;border-radius:10px;padding:28px 32px;width:min(420px,92vw);box-shadow:0 2px 10px rgba(0,0,0,.05)}
h1{font-size:20px;margin:0 0 6px}p{color:#57606a;font-size:14px;margin:0 0 18px}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;padding:9px 10px;border:1px solid #c9ced4;border-radius:6px;font-size:15px}
button{margin-top:20px;width:100%;padding:10px;border:0;border-radius:6px;background:#1c7ed6;color:#fff;font-size:15px;font-weight:600;cursor:pointer}
.note{margin-top:16px;font-size:12px;color:#8c959f}.error{color:#c92a2a;font-size:14px}
</style></head><body><main>${body}</main></body></html>`;
}

/** Accounts exist only for the time of a sign-in; the app keeps its own users. */
type LocalAccounts = Map<string, LocalAccount>;

/** The OIDC server: its client secret and keys (made once, kept in the database), then oidc-provider. */
async function startProvider(app: FastifyInstance, accounts: LocalAccounts): Promise<{ provider: Provider; callback: ReturnType<Provider['callback']> }> {
  const { config, db } = app;
  const issuer = `${config.publicUrl}${LOCAL_IDP_PATH}`;
  const clientSecret = await localClientSecret(db);
  const jwk = JSON.parse(
    await serverSecret(db, 'local-idp-jwk', async () => {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      return JSON.stringify({ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') });
    }),
  ) as Record<string, string>;
  const cookieKey = await serverSecret(db, 'local-idp-cookie', () => randomBytes(32).toString('base64url'));

  const configuration: Configuration = {
    clients: ssoProviders.map((provider) => ({
      client_id: localClientId(provider),
      client_secret: clientSecret,
      redirect_uris: [`${config.publicUrl}/sso/${provider}/redirect`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [cookieKey] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${LOCAL_IDP_PATH}/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      const [given, ...family] = account.name.split(/\s+/);
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: true,
          name: account.name,
          given_name: given ?? '',
          family_name: family.join(' '),
        }),
      };
    },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 300, IdToken: 300 },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<h1>Sign-in error</h1><p class="error">${escapeHtml(String(out.error_description ?? out.error))}</p>`);
    },
  };
  // Loaded only when the local IdP is on: production never loads it. Its start-up warnings are about
  // what this development provider deliberately is (Node 20 rather than 22, interactions kept in
  // memory: architecture.md "Scaling"); they go to our log at debug level instead of the console.
  const provider = await withoutKnownWarnings(app, async () => {
    const { default: OidcProvider } = await import('oidc-provider');
    return new OidcProvider(issuer, configuration);
  });
  provider.proxy = config.env === 'production';
  return { provider, callback: provider.callback() };
}

export const localIdp: FastifyPluginAsync = async (app) => {
  const accounts: LocalAccounts = new Map();
  // The provider (its keys, oidc-provider and Koa: about 0.3 s) is made with the first request
  // under /oidc rather than at start-up (issue 18 §3); a failed attempt is tried again next time.
  let started: ReturnType<typeof startProvider> | undefined;
  const oidc = () =>
    (started ??= startProvider(app, accounts).catch((error: unknown) => {
      started = undefined;
      throw error;
    }));

  const sendHtml = (reply: FastifyReply, html: string) =>
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, parseQuery(body as string)),
  );

  app.get<{ Params: { uid: string } }>('/interaction/:uid', { schema: { hide: true } }, async (request, reply) => {
    const { provider } = await oidc();
    const details = await provider.interactionDetails(request.raw, reply.raw);
    if (details.prompt.name === 'consent') {
      // First-party clients: consent is implied.
      const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
      grant.addOIDCScope('openid email profile');
      const redirectTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return reply.redirect(redirectTo, 303);
    }
    const playing = ssoProviders.find((p) => localClientId(p) === details.params.client_id);
    const label = playing ? ssoProviderLabel[playing] : 'Bilan';
    return sendHtml(
      reply,
      page(
        `Sign in — ${label} (local)`,
        `<h1>Sign in with ${escapeHtml(label)}</h1>
<p>Local development sign-in: any e-mail and name are accepted. Configure a real ${escapeHtml(label)} client to use it instead.</p>
<form method="post" action="${LOCAL_IDP_PATH}/interaction/${escapeHtml(details.uid)}">
<label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email" autofocus>
<label for="name">Full name</label><input id="name" name="name" type="text" required autocomplete="name">
<button type="submit">Continue</button></form>
<p class="note">Bilan built-in identity provider</p>`,
      ),
    );
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string | string[] | undefined> }>(
    '/interaction/:uid',
    { schema: { hide: true } },
    async (request, reply) => {
      const { provider } = await oidc();
      await provider.interactionDetails(request.raw, reply.raw);
      const email = String(request.body?.email ?? '').trim().toLowerCase();
      const name = String(request.body?.name ?? '').trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !name) {
        return sendHtml(reply.code(400), page('Sign-in error', '<h1>Sign-in error</h1><p class="error">Enter an e-mail address and a name.</p>'));
      }
      accounts.set(email, { email, name: name.slice(0, 100) });
      const redirectTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: email } }, { mergeWithLastSubmission: false });
      return reply.redirect(redirectTo, 303);
    },
  );

  // Everything else is the OIDC server itself; it reads its own request bodies.
  const passThrough = async (request: { raw: IncomingMessage }, reply: FastifyReply) => {
    const { callback } = await oidc();
    reply.hijack();
    // As under Express's app.use(prefix, …): the provider derives its mount path from originalUrl.
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = raw.url!.slice(LOCAL_IDP_PATH.length) || '/';
    await callback(request.raw, reply.raw);
  };
  app.route({ method: ['GET', 'POST'], url: '/*', schema: { hide: true }, onRequest: passThrough, handler: async () => undefined });
  app.route({ method: ['GET'], url: '/', schema: { hide: true }, onRequest: passThrough, handler: async () => undefined });
};

const KNOWN_WARNINGS = ['oidc-provider WARNING: Unsupported runtime', 'oidc-provider WARNING: a quick start development-only in-memory adapter'];

/** Runs `load` with oidc-provider's known start-up warnings sent to the app log (debug), others kept. */
async function withoutKnownWarnings<T>(app: FastifyInstance, load: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    // On a terminal the text comes wrapped in colour codes, hence includes() rather than a prefix.
    const text = args.map(String).join(' ');
    if (KNOWN_WARNINGS.some((known) => text.includes(known))) app.log.debug({ idp: text }, 'built-in identity provider notice');
    else warn(...args);
  };
  try {
    return await load();
  } finally {
    console.warn = warn;
  }
}
