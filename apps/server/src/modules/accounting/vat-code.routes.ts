/** VAT codes under /api/accounting/vat-code (issue 13 §1, decision 019; docs/api.md "VAT codes"). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { auditClient } from '../audit/audit.service.js';
import { errors, errorsWithConflict, okSchema, strictObject, vatCodeAnswer, vatCodeData, vatCodeKey, vatCodePatch } from './accounting.schemas.js';
import { fieldsUnder } from './accounting.errors.js';
import { changeVatCode, createVatCode, listVatCodes, removeVatCode, type VatCodeActor } from './vat-code.service.js';

const tags = ['accounting'];

const RULES =
  'Rules across fields (400 naming the field): kinds exempt and outside have rate type zero and no account, the others a ' +
  'rate type and an account (existing, or one of the VAT accounts created on first use: 2202, 2203); an acquisition tax has ' +
  'a deduction account and Ziffer and is entered net.';

/**
 * vat-code/list (every role: the entry form offers the codes), insert, update and delete (owner and
 * admin). Changes are audited.
 */
export const vatCodeRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = (request: Parameters<typeof auth>[0]): VatCodeActor => ({ userId: auth(request).userId, ...auditClient(request) });

  app.get(
    '/vat-code/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: "The instance's VAT codes by code, active and inactive, each with `hasPostings`.",
        response: { 200: z.object({ data: z.array(vatCodeAnswer) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { data: await app.db.withInstance(instanceId, (tx) => listVatCodes(tx, instanceId)) };
    },
  );

  app.post(
    '/vat-code/insert',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: `Creates a VAT code. ${RULES} 409 \`vat_code_taken\` when the code exists. Owner and admin; audited.`,
        body: strictObject({ data: vatCodeData }),
        response: { 200: vatCodeAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const who = actor(request);
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => createVatCode(tx, instanceId, request.body.data, who)));
    },
  );

  app.post(
    '/vat-code/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description:
          `Changes the given fields of a VAT code (the code itself never changes). ${RULES} 404 unknown code; 409 ` +
          '`vat_code_in_use` when postings carry it and kind or rate type would change. `isActive: false` deactivates it: ' +
          'no new line may name it, its postings keep it. Owner and admin; audited.',
        body: strictObject({ code: vatCodeKey, data: vatCodePatch }),
        response: { 200: vatCodeAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const who = actor(request);
      const { code, data } = request.body;
      return fieldsUnder('data', () => app.db.withInstance(instanceId, (tx) => changeVatCode(tx, instanceId, code, data, who)));
    },
  );

  app.post(
    '/vat-code/delete',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: 'Deletes an unused VAT code; 404 unknown; 409 `vat_code_in_use` when postings carry it (deactivate it instead). Owner and admin; audited.',
        body: strictObject({ code: vatCodeKey }),
        response: { 200: okSchema, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const who = actor(request);
      await app.db.withInstance(instanceId, (tx) => removeVatCode(tx, instanceId, request.body.code, who));
      return { ok: true as const };
    },
  );
};
