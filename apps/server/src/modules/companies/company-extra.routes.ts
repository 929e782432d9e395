/**
 * Company sub-pages and settings: /api/additional-property/*, /api/company/ap-ar, the General
 * Settings update /api/instance/update (spec §2.7) and the Swiss company register search
 * /api/company-register/* (spec §2.9, §7.1). Shapes in docs/api.md "Companies".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { additionalPropertyInsertSchema, instanceSettingsSchema, strictObject, vatPercentToRate, Currency, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { conflict, notFound } from '../../http/errors.js';
import { fieldsUnder } from '../../http/errors.js';
import { instanceDetailSchema } from '../instances/instances.routes.js';
import { instanceDetail } from '../instances/instances.service.js';
import { insertAdditionalProperty, listAdditionalProperties, removeAdditionalProperty } from './additional-property.service.js';
import { companyApAr } from './ap-ar.service.js';
import { CompanyRegister } from './company-register.js';
import { companyRef, errors, errorsWithConflict, errorsWithNotFound, numericId, okSchema } from './companies.schemas.js';
import { getCompany } from './companies.service.js';

const propertyAnswer = z.object({ id: z.number().int(), company: z.object({ uuid: z.string() }), type: z.number().int(), name: z.string(), value: z.string() });
const openItem = z.object({
  kind: z.enum(['receivable', 'payable']),
  document: z.string(),
  uuid: z.string().nullable(),
  id: z.number().int().nullable(),
  reference: z.string(),
  date: z.string().nullable(),
  dueDate: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  link: z.string().nullable(),
});
const registerCompany = z.object({
  name: z.string(),
  ehraid: z.number().int(),
  uid: z.string().nullable(),
  legalSeat: z.string().nullable(),
  legalForm: z.string().nullable(),
  status: z.string().nullable(),
});
const registerError = errors[400].extend({ configured: z.boolean().optional().describe('false when the register is not configured') });
const registerErrors = { ...errorsWithNotFound, 502: registerError, 503: registerError } as const;

export const companyExtraRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['companies'];

  app.post(
    '/additional-property/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Additional properties, of one company with `filters.company.uuid` (404 unknown), in insertion order.',
        body: strictObject({ filters: strictObject({ company: companyRef.optional(), type: z.number().int().optional() }).optional() }).optional(),
        response: { 200: z.object({ data: z.array(propertyAnswer), total: z.number().int() }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const f = request.body?.filters ?? {};
      const data = await app.db.withInstance(instanceId, (tx) => listAdditionalProperties(tx, instanceId, { companyUuid: f.company?.uuid, type: f.type }));
      return { data, total: data.length };
    },
  );

  app.post(
    '/additional-property/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Adds a typed property to `data.company.uuid`; `value` is checked by `type` (Text, Email, Phone, Link http(s), Date YYYY-MM-DD, Barcode, ReferenceNumber QR/RF, Amount, InternalLink /path).',
        body: strictObject({ data: additionalPropertyInsertSchema }),
        response: { 200: propertyAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => insertAdditionalProperty(tx, instanceId, request.body.data)));
    },
  );

  app.post(
    '/additional-property/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes an additional property; 404 unknown id.', body: numericId, response: { 200: okSchema, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => removeAdditionalProperty(tx, instanceId, request.body.id));
      return { ok: true as const };
    },
  );

  app.post(
    '/company/ap-ar',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Open receivables (sent invoices) and payables (open bills) of the company with totals in the instance currency (decimal strings); 404 unknown company.',
        body: strictObject({ uuid: zUuid }),
        response: {
          200: z.object({
            company: z.object({ uuid: z.string(), name: z.string() }),
            receivables: z.array(openItem),
            payables: z.array(openItem),
            totals: z.object({ receivable: z.string(), payable: z.string(), net: z.string() }),
          }),
          ...errorsWithNotFound,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => {
        const company = await getCompany(tx, instanceId, request.body.uuid);
        return { company: { uuid: company.uuid, name: company.name }, ...(await companyApAr(tx, instanceId, company.uuid)) };
      });
    },
  );

  app.post(
    '/instance/update',
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
      const data = request.body.data;
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, async (tx) => {
          if (data.currency !== undefined) {
            const [current] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
            const [entries] = await tx.query('SELECT 1 FROM journal_entry WHERE instance_id = $1 LIMIT 1', [instanceId]);
            if (current && current.currency_id !== Currency[data.currency] && entries) {
              throw conflict('the default currency cannot change once the books have entries', { currency: 'the default currency cannot change once the books have entries' });
            }
          }
          const vat = data.vat === undefined ? undefined : data.vat === null || data.vat.trim() === '' ? null : vatPercentToRate(data.vat.trim());
          try {
            await tx.query(
              `UPDATE instance SET name = coalesce($2, name),
                      vat_rate = CASE WHEN $3 THEN $4::numeric ELSE vat_rate END,
                      vat_number = CASE WHEN $5 THEN $6 ELSE vat_number END,
                      currency_id = coalesce($7, currency_id)
                WHERE id = $1`,
              [
                instanceId,
                data.name?.trim() ?? null,
                vat !== undefined,
                vat ?? null,
                data.vatNumber !== undefined,
                data.vatNumber?.trim() || null,
                data.currency === undefined ? null : Currency[data.currency],
              ],
            );
          } catch (error) {
            if ((error as { code?: string }).code === '23505') throw conflict('Instance name already taken', { name: 'Instance name already taken' });
            throw error;
          }
          return instanceDetail(tx, instanceId, userId);
        }),
      );
    },
  );

  const register = new CompanyRegister(app.config.companyRegister);

  app.get(
    '/company-register/status',
    {
      config: { access: 'session' },
      schema: {
        tags: ['onboarding'],
        description: 'Whether the Swiss commercial register search is configured, so the onboarding step can offer it or say it is not available.',
        response: { 200: z.object({ configured: z.boolean() }), ...errors },
      },
    },
    async () => ({ configured: register.configured }),
  );

  app.get(
    '/company-register/search',
    {
      config: { access: 'session' },
      schema: {
        tags: ['onboarding'],
        description: 'Swiss commercial register (Zefix) search by name `s` (≥ 3 characters), active companies. 503 when not configured, 502 when unreachable.',
        querystring: z.object({ s: z.string().trim().min(3, { error: 'search text must have at least 3 characters' }).max(200) }),
        response: { 200: z.object({ data: z.array(registerCompany), total: z.number().int() }), ...registerErrors },
      },
    },
    async (request) => {
      const data = await register.search(request.query.s);
      return { data, total: data.length };
    },
  );

  app.get(
    '/company-register/detail',
    {
      config: { access: 'session' },
      schema: {
        tags: ['onboarding'],
        description: 'One register company by EHRA-ID `ehraid` with its address { street, houseNumber, town, swissZipCode }; `s` is the search text (ignored). 404 unknown id.',
        querystring: z.object({ s: z.string().optional(), ehraid: z.coerce.number().int().positive() }),
        response: {
          200: registerCompany.extend({
            address: z.object({ street: z.string().nullable(), houseNumber: z.string().nullable(), town: z.string().nullable(), swissZipCode: z.string().nullable() }).nullable(),
          }),
          ...registerErrors,
        },
      },
    },
    async (request) => {
      const detail = await register.detail(request.query.ehraid);
      if (!detail) throw notFound(`register company ${request.query.ehraid}`);
      return detail;
    },
  );
};
