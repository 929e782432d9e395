/**
 * Company sub-pages: /api/additional-property/*, /api/company/ap-ar and the Swiss company register
 * search /api/company-register/* (spec §2.9, §7.1). Shapes in docs/api.md "Companies".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { additionalPropertyInsertSchema, strictObject, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { fieldsUnder } from '../../http/errors.js';
import { insertAdditionalProperty, listAdditionalProperties, removeAdditionalProperty } from './additional-property.service.js';
import { companyApAr, type ApArSource } from './ap-ar.service.js';
import { CompanyRegister } from './company-register.js';
import { companyRef, errors, errorsWithNotFound, numericId, okSchema } from './companies.schemas.js';
import { companyError } from './companies.errors.js';
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

/** Additional properties, ap-ar (from `apArSources`) and the company register. */
export const companyExtraRoutes: FastifyPluginAsyncZod<{ apArSources: readonly ApArSource[] }> = async (app, { apArSources }) => {
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
        // Only the uuid and name are answered, so the own-company flag is not asked.
        const company = await getCompany(tx, instanceId, request.body.uuid, null);
        return { company: { uuid: company.uuid, name: company.name }, ...(await companyApAr(tx, instanceId, company.uuid, apArSources)) };
      });
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
      if (!detail) throw companyError('register_company_not_found', `register company ${request.query.ehraid} not found`);
      return detail;
    },
  );
};
