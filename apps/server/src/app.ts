/**
 * Builds the Fastify application: one `buildApp()` for `main.ts`, the CLI's tests and the test
 * suites (STYLE.md #5). Order: external plugins, then cross-cutting app plugins, then modules.
 */
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { installZodMessages, messageLanguageOf, VERSION } from '@bilan/domain';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { AppError, fromDatabaseError } from './http/errors.js';
import { translateServerMessage } from './http/message-catalog.js';
import { accessPlugin } from './http/access.js';
import { documentIdempotencyKey, idempotencyPlugin } from './http/idempotency.js';
import { BODY_LIMIT } from './http/body-limits.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { rateLimits } from './http/rate-limits.js';
import { isNestedDeeperThan, NUL_MESSAGE, nulBytePath, TOO_DEEP_MESSAGE, validationFields } from './http/validation.js';
import { legalRoutes, loadTerms } from './modules/meta/legal.routes.js';
import { metaRoutes } from './modules/meta/meta.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { localIdp } from './modules/auth/local-idp.js';
import { SessionService } from './modules/identity/session.service.js';
import { instanceRoutes } from './modules/instances/instances.routes.js';
import { profileRoutes } from './modules/identity/profile.routes.js';
import { accountingRoutes } from './modules/accounting/accounting.routes.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { actionLogRoutes } from './modules/action-log/action-log.routes.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { invoicingRoutes } from './modules/invoicing/invoicing.routes.js';
import { payablesModule } from './modules/payables/payables.module.js';
import { bankingRoutes } from './modules/banking/banking.routes.js';
import { salaryRoutes } from './modules/salary/salary.routes.js';
import { companyRoutes } from './modules/companies/companies.routes.js';
import { isSpaPath, webApp } from './http/web-app.js';
import { wireModules } from './modules/wiring/wiring.js';
import { JobRunner } from './modules/jobs/job-runner.js';
import { jobsRoutes } from './modules/jobs/jobs.routes.js';
import { Mailer } from './modules/messaging/messaging.service.js';
import { messagingRoutes } from './modules/messaging/messaging.routes.js';
import { supportRoutes } from './modules/support/support.routes.js';
import { MailSync } from './modules/mail-sync/mail-sync.service.js';
import { mailSyncRoutes } from './modules/mail-sync/mail-sync.routes.js';
import { invoiceMailRoutes } from './modules/invoicing/invoice-mail.routes.js';
import { creditNoteRoutes } from './modules/invoicing/credit-notes.routes.js';
import { quoteRoutes } from './modules/quotes/quotes.routes.js';
import { RecurringInvoices } from './modules/recurring/recurring.service.js';
import { recurringRoutes } from './modules/recurring/recurring.routes.js';
import { dunningRoutes } from './modules/dunning/dunning.routes.js';

export interface AppDeps {
  config: Config;
  db: Database;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    sessions: SessionService;
    /** The job runner (modules/jobs): pg-boss on this database; polls unless BILAN_JOB_POLL_SECONDS=0. */
    jobs: JobRunner;
    /** Outgoing e-mail (modules/messaging): stores each message, delivers it by a job. */
    mailer: Mailer;
  }
}

export type App = FastifyInstance;

// The spec's generic messages ('This field is required', 'expected type …', §5) for every schema.
installZodMessages();

export async function buildApp({ config, db }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // Only the file and bulk-import routes take more (their own bodyLimit): see body-limits.ts.
    bodyLimit: BODY_LIMIT,
    // X-Forwarded-For only from the configured proxies: from anyone else it would let a client pick
    // its own IP, past every per-IP limit and into the audit trail (issue 11 §5).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers through fast-json-stringify, checked against zod outside production (decision 040).
  app.setSerializerCompiler(
    responseSerializerCompiler({
      check: config.checkAnswers,
      onFallback: (route, error) => app.log.warn({ err: error, route }, 'answer schema served by zod: fast-json-stringify cannot compile it'),
    }),
  );
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('sessions', await SessionService.create(db, config));
  // The job runner and the mail delivery it runs (issue 15 §1, §5); handlers are registered before
  // the first poll, and the runner stops before the database closes.
  const jobs = await JobRunner.create(db, { pollSeconds: config.jobPollSeconds, onError: (error) => app.log.error({ err: error }, 'job runner') });
  const mailer = new Mailer(db, jobs, config.mail);
  // Mail sync (issue 16 §1): its poll handler is registered before the first poll too.
  const mailSync = await MailSync.create(db, jobs, config.mailSyncMinutes);
  // Recurring invoices (issue 15 §4, decision 031): their job handler too.
  const recurring = new RecurringInvoices(db, jobs, { mailer, publicUrl: config.publicUrl });
  app.decorate('jobs', jobs);
  app.decorate('mailer', mailer);
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => {
    await jobs.stop();
    mailer.close();
  });

  // CSV uploads arrive as text.
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Field messages in the language the client asks for (issue 17 §3); English stays the contract.
    const language = messageLanguageOf(request.headers['accept-language']);
    const translated = (fields: Record<string, string> | undefined) =>
      fields && language !== 'en' ? Object.fromEntries(Object.entries(fields).map(([path, text]) => [path, translateServerMessage(text, language)])) : fields;
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = validationFields(error.validation);
      const [first] = Object.entries(fields);
      const message = first ? `${first[0]}: ${first[1]}` : 'invalid request';
      return reply.code(400).send({ error: translateServerMessage(message, language), fields: translated(fields), code: 'validation' });
    }
    const appError = error instanceof AppError ? error : fromDatabaseError(error);
    if (appError) {
      // A refused upload (CSV, XML, a file) is one field: the file. Name it when the error names none.
      const isFile = appError.statusCode === 400 && !appError.fields && !String(request.headers['content-type'] ?? '').includes('json') && request.body !== undefined;
      const fields = isFile ? { file: appError.message } : appError.fields;
      // An import's per-row list (`rows: [{ row, field, message }]`) is read like `fields`.
      const rows = appError.extra?.rows;
      const extra =
        Array.isArray(rows) && language !== 'en'
          ? { ...appError.extra, rows: rows.map((row: unknown) => (row && typeof row === 'object' && typeof (row as { message?: unknown }).message === 'string' ? { ...row, message: translateServerMessage((row as { message: string }).message, language) } : row)) }
          : appError.extra;
      return reply.code(appError.statusCode).send({ error: translateServerMessage(appError.message, language), fields: translated(fields), ...extra, code: appError.bodyCode });
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type). A 400 of this kind
    // is about the body as a whole, so `fields` names the body (every 400 names what is wrong).
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: error.message, ...(error.statusCode === 400 ? { fields: { body: error.message } } : {}) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Internal server error', requestId: request.id });
  });

  // Before validation: text with a NUL character is refused naming its field (PostgreSQL could only
  // say "invalid byte sequence", naming none).
  app.addHook('preValidation', async (request) => {
    if (isNestedDeeperThan(request.body)) throw new AppError('validation', `body: ${TOO_DEEP_MESSAGE}`, { body: TOO_DEEP_MESSAGE });
    const path = nulBytePath(request.body) ?? nulBytePath(request.query);
    if (path) throw new AppError('validation', `${path}: ${NUL_MESSAGE}`, { [path]: NUL_MESSAGE });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (app.hasWebApp && request.method === 'GET' && isSpaPath(path)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    return reply.code(404).send({ error: `no route ${request.method} ${path}` });
  });

  await app.register(cookie);
  // Answers above 1 KB compressed (issue 18 §1), brotli or gzip as the client accepts. PDFs and
  // images are not compressible and go as they are; the web app's files come precompressed.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  // Helmet's middleware built once: @fastify/helmet builds it again on every request (its CSP
  // directives parsed each time, ~2 % of a list request's CPU in bench:lists' profile, issue 18 §2).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the inbox compile the QR-code reader's WebAssembly (zxing-wasm,
        // decision 010, served from 'self'); JavaScript eval stays forbidden.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Mantine injects its CSS variables at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // Inbox previews: a stored PDF fetched with the session token and shown from a blob: URL.
        frameSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'", ...Object.values(config.oidc).map((p) => new URL(p.issuer).origin)],
        upgradeInsecureRequests: config.env === 'production' ? [] : null,
      },
    },
    hsts: config.env === 'production',
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)));
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Bilan API',
        version: VERSION,
        description:
          'Business API under /api and session API under /napi (SPEC §7). Errors are `{ error, fields }`; ' +
          'amounts are decimal strings, ledger dates YYYY-MM-DD.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: documentIdempotencyKey(jsonSchemaTransform),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(accessPlugin);
  // After access: a key is claimed for the authenticated instance and user (decision 013).
  await app.register(idempotencyPlugin);
  await app.register(rateLimits);

  // The ports lower modules need from upper ones (modules/wiring/wiring.ts), passed explicitly.
  const wiring = wireModules();
  await app.register(metaRoutes, { prefix: '/api' });
  await app.register(legalRoutes, { prefix: '/api', terms: loadTerms(config.termsFile) });
  await app.register(authRoutes, { prefix: '/napi' });
  await app.register(profileRoutes);
  await app.register(instanceRoutes);
  await app.register(accountingRoutes, {
    prefix: '/api/accounting',
    documents: wiring.documentResolvers,
    letterhead: wiring.statementLetterhead,
    checkSources: wiring.checkSources,
    vatOrganisation: wiring.vatOrganisation,
  });
  await app.register(analyticsRoutes, { prefix: '/api' });
  await app.register(searchRoutes, { prefix: '/api' });
  await app.register(actionLogRoutes, { prefix: '/napi' });
  await app.register(identityRoutes);
  await app.register(jobsRoutes);
  await app.register(messagingRoutes, { prefix: '/api', mailer });
  await app.register(supportRoutes, { mailer });
  await app.register(mailSyncRoutes, { mailSync });
  await app.register(invoicingRoutes, { prefix: '/api' });
  await app.register(invoiceMailRoutes, { prefix: '/api', mailer, publicUrl: config.publicUrl });
  await app.register(creditNoteRoutes, { prefix: '/api' });
  await app.register(quoteRoutes, { prefix: '/api' });
  await app.register(recurringRoutes, { prefix: '/api', recurring });
  await app.register(dunningRoutes, { prefix: '/api', mailer });
  await app.register(payablesModule, { prefix: '/api' });
  await app.register(salaryRoutes, { prefix: '/api' });
  await app.register(bankingRoutes, { prefix: '/api', invoicePort: wiring.invoicePort });
  await app.register(companyRoutes, { prefix: '/api', apArSources: wiring.apArSources, documentCounts: wiring.companyDocumentCounts, ownCompany: wiring.ownCompany });
  if (config.localIdp) await app.register(localIdp, { prefix: '/oidc' });
  await app.register(webApp);

  return app;
}
