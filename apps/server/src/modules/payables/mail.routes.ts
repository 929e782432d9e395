/**
 * /api/mail/* (spec §3 "Mail", §4 Mail status, §7.1 "Mail"): mails that brought bills. Status
 * pending 1 → processed 2 (a bill was saved from one of its attachments, or set by hand) or refused
 * 3 (not a bill); processed and refused are final (409). Mails come from uploaded .eml files
 * (`/file/upload`) or `/mail/insert`, which links inbox files uploaded first by uuid.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { payableError } from './payables.errors.js';
import { errorSchema, errors, errorsWithConflict, pageAnswerFields, pageFields } from '../../http/schemas.js';
import { importReceipts } from './mail-import.service.js';
import { changeMailStatus, getMail, listMails } from './inbox.service.js';
import { mailAnswer } from './inbox.schemas.js';
import { BULK_BODY_LIMIT } from '../../http/body-limits.js';

const tags = ['mail'];

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/mail/import',
    {
      config: { access: 'write' },
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Dext import (spec route /mail/import): a CSV export of receipts (text/csv) → pending bills (`as=bill`, default; the supplier ' +
          'company matched by name or created) or expenses (`as=expense`), all or nothing. Header: date, supplier, amount, vat, currency, ' +
          "category (+ optional exchange rate, description, type bill|expense); Dext's usual names (Receipt Date, Supplier Name, Total, " +
          'Tax Amount, Currency Code, Category) are accepted, other columns ignored. Dates YYYY-MM-DD, DD.MM.YYYY or DD/MM/YYYY; amounts ' +
          "gross with VAT included; category = ledger account number or name. 400 `{ error, rows: [{ row, field, message }] }` (row = CSV line, header = 1), nothing written.",
        consumes: ['text/csv'],
        querystring: strictObject({ as: z.enum(['bill', 'expense']).default('bill') }),
        body: z.string().min(1, 'the body is empty: send the CSV text with content-type text/csv'),
        response: {
          200: z.object({
            created: z.number().int(),
            bills: z.number().int(),
            expenses: z.number().int(),
            companiesCreated: z.number().int(),
            data: z.array(z.object({ id: z.number().int(), uuid: z.string() })),
          }),
          ...errors,
          400: errorSchema.extend({ rows: z.array(z.object({ row: z.number().int(), field: z.string(), message: z.string() })).optional() }),
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => importReceipts(tx, instanceId, request.body, request.query.as));
    },
  );


  app.post(
    '/mail/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'Mails with their attachments, newest first; `filters.status` (pending 1, processed 2, refused 3), `filters.id` one mail; `page`, `pageSize` (default 1, 50).',
        body: strictObject({
          filters: strictObject({ status: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(), id: zId.optional() }).optional(),
          ...pageFields,
        }).optional(),
        response: { 200: z.object({ data: z.array(mailAnswer), total: pageAnswerFields.total, totalCapped: pageAnswerFields.totalCapped }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const filters = request.body?.filters ?? {};
      return app.db.withInstance(instanceId, (tx) =>
        listMails(tx, instanceId, { status: filters.status, id: filters.id }, { page: request.body?.page ?? 1, pageSize: request.body?.pageSize ?? 50 }),
      );
    },
  );

  app.post(
    '/mail/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Records a mail (pending) with its attachments: uuids of inbox files, which are linked to it. 400 `data.files.N` unknown file.',
        body: strictObject({
          data: strictObject({
            from: z.string().trim().min(1).max(320),
            subject: z.string().max(500).default(''),
            text: z.string().max(100_000).default(''),
            receivedAt: z.iso.datetime().optional(),
            files: z.array(zUuid).max(50).default([]),
          }),
        }),
        response: { 200: mailAnswer, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { data } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO mail (instance_id, id, sender, subject, body, received_at) VALUES ($1, next_ids($1, 'mail'), $2, $3, $4, coalesce($5::timestamptz, now())) RETURNING id`,
          [instanceId, data.from, data.subject, data.text, data.receivedAt ?? null],
        );
        for (const [index, uuid] of data.files.entries()) {
          const linked = await tx.query('UPDATE inbox_file SET mail_id = $3 WHERE instance_id = $1 AND uuid = $2 RETURNING uuid', [instanceId, uuid, row!.id]);
          if (!linked.length) throw payableError('invalid_file', `data.files.${index}: file ${uuid} not found`, { [`data.files.${index}`]: `file ${uuid} not found` });
        }
        return getMail(tx, instanceId, row!.id);
      });
    },
  );

  app.post(
    '/mail/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Sets the status of a pending mail to processed 2 or refused 3; 409 once it is processed or refused, 404 unknown id.',
        body: strictObject({ id: zId, data: strictObject({ status: z.union([z.literal(2), z.literal(3)]) }) }),
        response: { 200: mailAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { id, data } = request.body;
      return app.db.withInstance(instanceId, (tx) => changeMailStatus(tx, instanceId, id, data.status));
    },
  );
};
