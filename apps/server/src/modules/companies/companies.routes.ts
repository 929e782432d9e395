/**
 * /api/company, /api/address, /api/payment-profile (spec §7.1 "Company", "Address", "Payment
 * profile"; shapes in docs/api.md "Companies"). Every route declares `config.access`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addressInsertSchema, companyAddressSchema, companyInsertSchema, companyUpdateSchema, paymentProfileInsertSchema, strictObject, zId, zUuid } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { auth } from '../../http/access.js';
import { pageAnswerFields, pageFields } from '../../http/schemas.js';
import { linkNext } from '../../http/next-link.js';
import { DEFAULT_PAGE_SIZE } from '../../db/paging.js';
import { companiesOpenTotals, type ApArSource } from './ap-ar.service.js';
import { requirePort } from '../../lib/ports.js';
import { fieldsUnder } from '../../http/errors.js';
import { companyExtraRoutes } from './company-extra.routes.js';
import { contactRoutes } from './contacts.routes.js';
import {
  addressAnswer,
  companyAnswer,
  companyRef,
  companySort,
  errors,
  errorsWithConflict,
  errorsWithNotFound,
  numericId,
  okSchema,
  page,
  pageSize,
  paymentProfileAnswer,
  uuidId,
} from './companies.schemas.js';
import {
  archiveProfile,
  changeAddress,
  changeCompany,
  getCompany,
  importCompanies,
  insertAddress,
  insertCompanyWithAddress,
  insertPaymentProfile,
  listAddressPage,
  listCompanies,
  listPaymentProfilePage,
  listPaymentProfiles,
  removeAddress,
  removeCompany,
  removePaymentProfile,
  type CompanyDocumentCountsPort,
} from './companies.service.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';

const companyListItem = companyAnswer.extend({
  open: z
    .object({ receivable: z.string(), payable: z.string() })
    .optional()
    .describe('with `openAmounts`: open receivables (sent invoices) and payables (open bills), decimal strings in the instance currency'),
});
const companyList = z.object({ data: z.array(companyListItem), ...pageAnswerFields });

/** A page of companies, with their open receivable and payable when asked (company list columns). */
async function companyPage(
  tx: Tx,
  instanceId: string,
  query: Parameters<typeof listCompanies>[2],
  openAmounts: boolean | undefined,
  ports: Pick<CompanyRouteOptions, 'apArSources' | 'ownCompany'>,
) {
  const page = await listCompanies(tx, instanceId, query, await ports.ownCompany(tx, instanceId));
  if (!openAmounts) return page;
  const totals = await companiesOpenTotals(tx, instanceId, page.data.map((company) => company.uuid), ports.apArSources);
  return { ...page, data: page.data.map((company) => ({ ...company, open: totals.get(company.uuid) ?? { receivable: '0.00', payable: '0.00' } })) };
}

/** What the company routes need from the modules above companies (modules/wiring/wiring.ts). */
export interface CompanyRouteOptions {
  /** The open documents of a company (invoices, bills): the ap-ar page and the list's open amounts. */
  apArSources: readonly ApArSource[];
  /** The documents and postings that keep a company from being deleted. */
  documentCounts: CompanyDocumentCountsPort;
  /** The workplace's own company (instances), null before onboarding. */
  ownCompany: (tx: Tx, instanceId: string) => Promise<string | null>;
}

/** Company, address and payment-profile routes under /api; throws at start-up without its ports. */
export const companyRoutes: FastifyPluginAsyncZod<CompanyRouteOptions> = async (app, options) => {
  const tags = ['companies'];
  const apArSources = requirePort(options, 'apArSources', 'companyRoutes');
  const documentCounts = requirePort(options, 'documentCounts', 'companyRoutes');
  const ownCompany = requirePort(options, 'ownCompany', 'companyRoutes');
  const ports = { apArSources, ownCompany };
  await app.register(companyExtraRoutes, { apArSources });
  await app.register(contactRoutes);

  app.get(
    '/company/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Companies sorted by name (or `sort`/`order`; ties by name, then uuid), `text` matching name, UID or city; paged by `page` (1-based) or ' +
          '`cursor` (the answer\'s `nextCursor`, also given as `Link: <…>; rel="next"`), pageSize ≤ 500, default 50. `openAmounts=true` adds ' +
          'each one\'s open receivable and payable.',
        querystring: z.object({
          text: z.string().max(200).optional(),
          sort: z.enum(['name', 'uid', 'city', 'dateAdded']).optional(),
          order: z.enum(['asc', 'desc']).optional(),
          page: z.coerce.number().int().min(1).optional(),
          pageSize: z.coerce.number().int().min(1).max(500).optional(),
          cursor: pageFields.cursor,
          openAmounts: z.enum(['true', 'false']).optional(),
        }),
        response: { 200: companyList, ...errors },
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const q = request.query;
      const answer = await app.db.withInstance(instanceId, (tx) =>
        companyPage(
          tx,
          instanceId,
          { text: q.text, sort: q.sort ? { by: q.sort, order: q.order ?? 'asc' } : undefined, page: q.page, pageSize: q.pageSize, cursor: q.cursor },
          q.openAmounts === 'true',
          ports,
        ),
      );
      linkNext(request, reply, answer.nextCursor);
      return answer;
    },
  );

  app.post(
    '/company/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'As GET /company/list with a body `{ filters: { text }, page, pageSize, cursor, sort: { by, order }, openAmounts }`.',
        body: strictObject({
          filters: strictObject({ text: z.string().max(200).optional() }).optional(),
          page: page.optional(),
          pageSize: pageSize.optional(),
          cursor: pageFields.cursor,
          sort: companySort.optional(),
          openAmounts: z.boolean().optional(),
        }).optional(),
        response: { 200: companyList, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body ?? {};
      return app.db.withInstance(instanceId, (tx) =>
        companyPage(
          tx,
          instanceId,
          {
            text: body.filters?.text,
            sort: body.sort ? { by: body.sort.by, order: body.sort.order ?? 'asc' } : undefined,
            page: body.page,
            pageSize: body.pageSize,
            cursor: body.cursor,
          },
          body.openAmounts,
          ports,
        ),
      );
    },
  );

  app.post(
    '/company/detail',
    {
      config: { access: 'read' },
      schema: { tags, description: 'One company by uuid (`id`); 404 unknown or of another instance.', body: uuidId, response: { 200: companyAnswer, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => getCompany(tx, instanceId, request.body.id, await ownCompany(tx, instanceId)));
    },
  );

  app.post(
    '/company/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Creates a company: name required ('This field must be given'), uid a Swiss UID (eCH-0097, stored as CHE-123.456.789), optional structured first address.",
        body: strictObject({ data: companyInsertSchema }),
        response: { 200: companyAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => insertCompanyWithAddress(tx, instanceId, request.body.data)));
    },
  );

  app.post(
    '/company/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Changes name and/or uid of the company `id` (uuid); uid null or empty clears it. 404 unknown id.',
        body: strictObject({ id: zUuid, data: companyUpdateSchema }),
        response: { 200: companyAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, async (tx) => changeCompany(tx, instanceId, request.body.id, request.body.data, await ownCompany(tx, instanceId))));
    },
  );

  app.post(
    '/company/delete',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Deletes a company with its addresses, payment profiles and properties; 409 naming what keeps it (invoices, bills, postings) and for the workplace's own company.",
        body: uuidId,
        response: { 200: okSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, async (tx) => removeCompany(tx, instanceId, request.body.id, documentCounts, await ownCompany(tx, instanceId)));
      return { ok: true as const };
    },
  );

  app.post(
    '/company/import',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Imports companies from CSV text `data` with header name,uid,street,houseNumber,zip,city,country (country id, ISO code or English name). All or nothing: 400 with `fields["line N.column"]` per bad row.',
        body: strictObject({ data: z.string().min(1, { error: 'This field must be given' }) }),
        response: { 200: z.object({ created: z.number().int(), data: z.array(companyAnswer) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => importCompanies(tx, instanceId, request.body.data));
    },
  );

  // ---------------------------------------------------------------------------------------------
  // Addresses
  // ---------------------------------------------------------------------------------------------

  app.post(
    '/address/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Addresses, of one company with `filters.company.uuid` (404 unknown company), by company then id; paged by `page` or `cursor` ' +
          '(the previous answer\'s `nextCursor`), pageSize ≤ 500 (default 50).',
        body: strictObject({ filters: strictObject({ company: companyRef.optional() }).optional(), ...pageFields }).optional(),
        response: { 200: z.object({ data: z.array(addressAnswer), ...pageAnswerFields }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body;
      return app.db.withInstance(instanceId, (tx) =>
        listAddressPage(tx, instanceId, body?.filters?.company?.uuid, { page: body?.page ?? 1, pageSize: body?.pageSize ?? DEFAULT_PAGE_SIZE, cursor: body?.cursor }),
      );
    },
  );

  app.post(
    '/address/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: "Adds an address to `data.company.uuid`; street, zip, city and country each 'This field must be given' (spec §5). 404 unknown company.",
        body: strictObject({ data: addressInsertSchema }),
        response: { 200: addressAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => insertAddress(tx, instanceId, request.body.data)));
    },
  );

  app.post(
    '/address/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Replaces street, houseNumber, zip, city and country of address `id`; 404 unknown id.',
        body: strictObject({ id: zId, data: companyAddressSchema }),
        response: { 200: addressAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => changeAddress(tx, instanceId, request.body.id, request.body.data)));
    },
  );

  app.post(
    '/address/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes an address; 404 unknown id, 409 while documents use it.', body: numericId, response: { 200: okSchema, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => removeAddress(tx, instanceId, request.body.id));
      return { ok: true as const };
    },
  );

  // ---------------------------------------------------------------------------------------------
  // Payment profiles
  // ---------------------------------------------------------------------------------------------

  const profileList = z.object({ data: z.array(paymentProfileAnswer), total: z.number().int() });

  app.post(
    '/payment-profile/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Payment profiles sorted by id, archived (logIsLog) ones hidden unless `includeArchived`; filters company (404 unknown), account, type, ' +
          '`iban` (an IBAN or QR-IBAN, spaces and case ignored, or a ledger address). Paged by `page` or `cursor` (the previous answer\'s ' +
          '`nextCursor`), pageSize ≤ 500 (default 50).',
        body: strictObject({
          filters: strictObject({
            company: companyRef.optional(),
            account: strictObject({ id: zId }).optional(),
            type: z.number().int().optional(),
            iban: z.string().trim().min(1).max(200).optional(),
            includeArchived: z.boolean().optional(),
          }).optional(),
          ...pageFields,
        }).optional(),
        response: { 200: z.object({ data: z.array(paymentProfileAnswer), ...pageAnswerFields }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body;
      const f = body?.filters ?? {};
      return app.db.withInstance(instanceId, (tx) =>
        listPaymentProfilePage(
          tx,
          instanceId,
          { companyUuid: f.company?.uuid, accountId: f.account?.id, type: f.type, iban: f.iban, includeArchived: f.includeArchived },
          { page: body?.page ?? 1, pageSize: body?.pageSize ?? DEFAULT_PAGE_SIZE, cursor: body?.cursor },
        ),
      );
    },
  );

  app.post(
    '/payment-profile/by-account',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Active payment profiles booked on ledger account `account.id` (e.g. the bank account an invoice is paid to).',
        body: strictObject({ account: strictObject({ id: zId }) }),
        response: { 200: profileList, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const data = await app.db.withInstance(instanceId, (tx) => listPaymentProfiles(tx, instanceId, { accountId: request.body.account.id }));
      return { data, total: data.length };
    },
  );

  app.post(
    '/payment-profile/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Creates a payment profile (spec §5 messages: 'Account must not be empty', 'Type must be given', 'IBAN must not be empty' / 'Public address must not be empty', 'The IBAN is wrongly formatted', 'The QR IBAN is invalid', 'The BIC is wrongly formatted'; EIP-55 / Solana address check for ledger types). `company` defaults to the workplace's own.",
        body: strictObject({ data: paymentProfileInsertSchema }),
        response: { 200: paymentProfileAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { data } = request.body;
      // The company defaults to the workplace's own.
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, async (tx) => {
          const own = data.company ? null : await ownCompany(tx, instanceId);
          return insertPaymentProfile(tx, instanceId, { ...data, company: data.company ?? (own ? { uuid: own } : null) });
        }),
      );
    },
  );

  app.post(
    '/payment-profile/archive',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Archives a payment profile (logIsLog): kept for history, hidden in lists. 404 unknown id.', body: numericId, response: { 200: paymentProfileAnswer, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => archiveProfile(tx, instanceId, request.body.id));
    },
  );

  app.post(
    '/payment-profile/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes a payment profile; 404 unknown id, 409 while documents use it (archive instead).', body: numericId, response: { 200: okSchema, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => removePaymentProfile(tx, instanceId, request.body.id));
      return { ok: true as const };
    },
  );
};
