/**
 * /api/salary/* (issue 16 §3, spec §2.2 `/salary/import`, decision 026): the wage-type mapping,
 * the preview and the posting of a payroll journal, and the list of imports.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { salaryImportSchema, salaryWageTypesSchema } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';
import { errors, errorsWithConflict } from '../../http/schemas.js';
import { listSalaryImports, postSalaryImport, previewSalaryImport, saveWageTypes, wageTypes } from './salary.service.js';

const tags = ['salary'];

const wageType = z.object({ code: z.string(), name: z.string(), debitAccount: z.string().nullable(), creditAccount: z.string().nullable(), isNetPay: z.boolean() });
const wageTypesAnswer = z.object({ data: z.array(wageType), isDefault: z.boolean().describe('true: the Swiss defaults, the instance saved no mapping') });

const previewAnswer = z.object({
  rows: z.number().int(),
  periodFrom: z.string(),
  periodTo: z.string(),
  employees: z.number().int(),
  totalCost: z.string().describe('sum debited to expense accounts (classes 5–9), instance currency'),
  entries: z.array(
    z.object({
      key: z.string(),
      date: z.string(),
      description: z.string(),
      total: z.string(),
      lines: z.array(
        z.object({
          account: z.object({ number: z.string(), name: z.string(), isNew: z.boolean().describe('created on posting (1091, 2271 of the Swiss SME chart)') }),
          debit: z.string().nullable(),
          credit: z.string().nullable(),
          description: z.string(),
        }),
      ),
    }),
  ),
  claims: z.array(z.object({ employee: z.string(), iban: z.string(), period: z.string(), date: z.string(), amount: z.string() })),
  clearingAccount: z.string().nullable(),
});

const importAnswer = z.object({
  id: z.number().int(),
  entries: z.array(z.object({ id: z.number().int(), key: z.string(), date: z.string() })),
  claims: z.array(z.object({ uuid: z.string(), employee: z.string(), period: z.string(), amount: z.string() })),
  periodFrom: z.string(),
  periodTo: z.string(),
});

const FILE_RULES =
  'Body: `file { name, encoding text|base64, content }` — CSV text (`,` `;` or tab) or an XLSX workbook in base64 — with columns ' +
  'period (YYYY-MM or MM.YYYY), employee, amount and a wage type (mapped by wage-type/list), or debit and/or credit, or account with a ' +
  'signed amount; optional date, description, iban. `groupBy` period (one entry per month) or employee (per month and employee); ' +
  '`netClaims` true turns the net pay rows into staff expenses owed to each employee (needs their iban), paid in a payment run with ' +
  "category purpose SALA. 400 `import_invalid` lists every bad row as 'line N.column'; unknown accounts as 'could not map account N'. " +
  '409 `period_locked` on or before the lock date.';

export const salaryRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/salary/wage-type/list',
    { config: { access: 'read' }, schema: { tags, description: 'The wage-type → ledger account mapping of the instance; the Swiss defaults until one is saved.', response: { 200: wageTypesAnswer, ...errors } } },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => wageTypes(tx, instanceId));
    },
  );

  app.post(
    '/salary/wage-type/save',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Replaces the mapping. 400 names `data.N.code` (listed twice) or `data.N.debitAccount`/`creditAccount` (no such account; 1091 and 2271 are created on first use).',
        body: salaryWageTypesSchema,
        response: { 200: wageTypesAnswer, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => saveWageTypes(tx, instanceId, request.body.data));
    },
  );

  app.post(
    '/salary/import/preview',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: { tags, description: `The entries and claims an import would post; nothing is written. ${FILE_RULES}`, body: salaryImportSchema, response: { 200: previewAnswer, ...errorsWithConflict } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => previewSalaryImport(tx, instanceId, request.body));
    },
  );

  app.post(
    '/salary/import',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description: `Posts the payroll journal, all or nothing (source 'salary'). The same file with the same choices again: 409 already_done. ${FILE_RULES}`,
        body: salaryImportSchema,
        response: { 200: importAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => postSalaryImport(tx, instanceId, userId, request.body));
    },
  );

  app.get(
    '/salary/import/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The posted imports, newest first, with their entries and claims.',
        response: {
          200: z.object({
            data: z.array(
              z.object({
                id: z.number().int(),
                fileName: z.string(),
                groupBy: z.string(),
                netClaims: z.boolean(),
                periodFrom: z.string(),
                periodTo: z.string(),
                totalGross: z.string(),
                entryIds: z.array(z.number().int()),
                payableUuids: z.array(z.string()),
                createdAt: z.string(),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { data: await app.db.withInstance(instanceId, (tx) => listSalaryImports(tx, instanceId)) };
    },
  );
};
