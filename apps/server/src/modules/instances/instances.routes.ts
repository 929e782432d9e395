/**
 * Instance detail, settings and onboarding (spec §7.1 "Meta and profile", "Onboarding"); the profile
 * and the user's instance list are identity's (identity/profile.routes.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currencyCodes, instanceInitAccountsSchema, instanceInitSchema, instanceSettingsSchema, strictObject } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { fieldsUnder } from '../../http/errors.js';
import { errorSchema as sharedErrorSchema, errorsWithConflict } from '../../http/schemas.js';
import { initAccounts, initInstance, instanceDetail, updateInstanceSettings } from './instances.service.js';
import { instanceLetterhead, LOGO_MAX_BYTES, saveLetterhead, type Letterhead } from './letterhead.js';

const currencySchema = z.enum(currencyCodes as [string, ...string[]]);
const errorSchema = sharedErrorSchema.loose();

export const instanceDetailSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  dateAdded: z.string(),
  vatRate: z.string().nullable().describe('fraction, e.g. "0.081" for 8.1 %'),
  vatNumber: z.string().nullable(),
  currency: currencySchema,
  address: z
    .object({
      street: z.string(),
      houseNumber: z.string().nullable(),
      city: z.string(),
      zip: z.string(),
      country: z.object({ id: z.number().int() }),
      company: z.object({ uuid: z.string(), name: z.string() }),
    })
    .nullable(),
  user: z.object({ uuid: z.string() }),
});

const letterheadSchema = z.object({
  phone: z.string(),
  email: z.string(),
  website: z.string(),
  logo: z
    .object({ type: z.enum(['image/png', 'image/jpeg']), size: z.number().int().describe('bytes'), dataUrl: z.string().describe('data: URL of the image, for a preview') })
    .nullable(),
});

const letterheadOut = (letterhead: Letterhead) => ({
  phone: letterhead.phone,
  email: letterhead.email,
  website: letterhead.website,
  logo: letterhead.logo
    ? { type: letterhead.logo.type, size: letterhead.logo.bytes.length, dataUrl: `data:${letterhead.logo.type};base64,${letterhead.logo.bytes.toString('base64')}` }
    : null,
});

const ledgerAccountOut = z.object({ id: z.number().int(), number: z.string(), name: z.string() }).passthrough();

export const instanceRoutes: FastifyPluginAsyncZod = async (app) => {

  app.get(
    '/api/instance/detail',
    {
      config: { access: 'read' },
      schema: { tags: ['instance'], description: 'The current instance (spec §3 Instance).', response: { 200: instanceDetailSchema } },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => instanceDetail(tx, instanceId, userId));
    },
  );

  app.get(
    '/api/instance/letterhead',
    {
      config: { access: 'read' },
      schema: {
        tags: ['instance'],
        description: 'The letterhead printed on invoices, quotes, credit notes and reminders (issue 15 §6): contact block and optional logo.',
        response: { 200: letterheadSchema },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return letterheadOut(await app.db.withInstance(instanceId, (tx) => instanceLetterhead(tx, instanceId)));
    },
  );

  app.post(
    '/api/instance/letterhead/update',
    {
      config: { access: 'admin' },
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags: ['instance'],
        description:
          `Sets the letterhead (owner/admin): phone, email, website (each optional; '' clears) and logo — {type, data: base64 of a PNG or ` +
          `JPEG of at most ${LOGO_MAX_BYTES / 1024} KiB} to replace it, null to remove it, absent to keep it. The file's bytes decide its type. ` +
          '400 naming `logo`, `phone`, `email` or `website`. Answers the letterhead.',
        body: strictObject({
          data: strictObject({
            phone: z.string().max(40).optional(),
            email: z.string().max(200).optional(),
            website: z.string().max(200).optional(),
            logo: strictObject({ type: z.string().max(40), data: z.string().max(4_000_000) }).nullable().optional(),
          }),
        }),
        response: { 200: letterheadSchema, 400: errorSchema },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', async () => letterheadOut(await app.db.withInstance(instanceId, (tx) => saveLetterhead(tx, instanceId, request.body.data))));
    },
  );

  app.post(
    '/api/instance/update',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['instance'],
        description:
          "General Settings (spec §2.7, owner/admin): name, vat (percent text 1–99, '' clears), vatNumber (Swiss UID, optional MWST suffix), currency (409 once the books have entries). Answers the instance detail.",
        body: strictObject({ data: instanceSettingsSchema }),
        response: { 200: instanceDetailSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => updateInstanceSettings(tx, instanceId, userId, request.body.data)));
    },
  );

  app.post(
    '/api/instance/init',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['onboarding'],
        description:
          'Onboarding step "end", part 1 (spec §4): the own company, its address, VAT (percent, 1–99) and default currency. ' +
          'Answers the company uuid for /instance/init/accounts. 409 once onboarding has finished.',
        body: instanceInitSchema,
        response: { 200: z.object({ company: z.object({ uuid: z.string() }) }), 400: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { company, address, extra } = request.body;
      const vat = extra.vat === undefined || extra.vat === null || String(extra.vat).trim() === '' ? null : String(extra.vat).trim();
      const result = await app.db.withInstance(instanceId, (tx) =>
        initInstance(tx, instanceId, {
          company: { name: company.name, uid: company.uid ?? null },
          address: {
            street: address.street,
            houseNumber: address.houseNumber ?? null,
            zip: address.zip,
            city: address.city,
            countryId: address.country.id,
          },
          extra: { vatPercent: vat, currency: extra.currency },
        }),
      );
      return { company: { uuid: result.companyUuid } };
    },
  );

  app.post(
    '/api/instance/init/accounts',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['onboarding'],
        description:
          'Onboarding step "end", part 2 (spec §4): loads the Swiss SME chart of accounts, adds the bank accounts as ledger ' +
          'accounts with a payment profile each, and marks the instance ready. 409 once onboarding has finished.',
        body: instanceInitAccountsSchema,
        response: { 200: z.object({ accounts: z.array(ledgerAccountOut) }), 400: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { company, accounts, currency } = request.body;
      return app.db.withInstance(instanceId, (tx) =>
        initAccounts(tx, instanceId, {
          companyUuid: company.uuid,
          currency,
          accounts: accounts.map((a) => ({ ledgerCode: Number(a.ledgerCode), name: a.name, iban: a.iban, bic: a.bic ?? null, type: a.type })),
        }),
      );
    },
  );
};
