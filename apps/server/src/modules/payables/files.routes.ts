/**
 * Inbox files (spec §3 "File", §7.1 "Files"; issue #5 §2): PDFs and images stored in PostgreSQL
 * (table inbox_file, RLS like every tenant table, so a file is never reachable from another
 * instance). Upload sends the raw bytes with their content type and `?name=`; an .eml
 * (message/rfc822) is read into a mail whose attachments become files (inbox.service.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { payableError } from './payables.errors.js';
import { errors, errorsWithConflict, errorsWithNotFound, okSchema, pageAnswerFields, pageFields } from '../../http/schemas.js';
import { DEFAULT_PAGE_SIZE } from '../../db/paging.js';
import { attachFileToPayable, FILE_COLUMNS, FILE_TYPES, importEml, listFilePage, toFile } from './inbox.service.js';
import { fileAnswer, mailAnswer } from './inbox.schemas.js';

export { FILE_TYPES };

const tags = ['files'];
const MAX_BYTES = 20 * 1024 * 1024;

type FileRow = Parameters<typeof toFile>[0];
const COLUMNS = FILE_COLUMNS;

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser([...FILE_TYPES], { parseAs: 'buffer', bodyLimit: MAX_BYTES }, (_request, body, done) => done(null, body));

  app.post(
    '/file/upload',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          `Stores one file: the raw bytes as body with its content type (${FILE_TYPES.join(', ')}; at most 20 MB) and \`?name=\`. ` +
          'Answers the file. An .eml (message/rfc822) is read instead into a pending mail (from, subject, date, text; the original is ' +
          'kept) whose PDF and image attachments become files of that mail, answering `{ mail, skipped: [{ name, mimeType }] }` ' +
          '(attachments that are no voucher); 400 `file` when it is no mail, 409 `file` when the same Message-ID was imported before.',
        querystring: strictObject({ name: z.string().trim().min(1).max(255) }),
        response: {
          200: z.union([fileAnswer, z.object({ mail: mailAnswer, skipped: z.array(z.object({ name: z.string(), mimeType: z.string() })) })]),
          ...errorsWithConflict,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body as unknown;
      const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (!Buffer.isBuffer(body) || !(FILE_TYPES as readonly string[]).includes(type)) {
        throw payableError('invalid_file', `file: send the file's bytes as ${FILE_TYPES.join(', ')}`, { file: 'unsupported file type' });
      }
      if (body.length === 0) throw payableError('invalid_file', 'file: the file is empty', { file: 'the file is empty' });
      if (type === 'message/rfc822') return app.db.withInstance(instanceId, (tx) => importEml(tx, instanceId, body, request.query.name));
      const [row] = await app.db.withInstance(instanceId, (tx) =>
        tx.query<FileRow>(`INSERT INTO inbox_file (instance_id, name, mime_type, size, content) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`, [
          instanceId,
          request.query.name,
          type,
          body.length,
          body,
        ]),
      );
      return toFile(row!);
    },
  );

  app.post(
    '/file/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Files, newest first (the same upload time: by uuid, descending); `filters.payable.id` the files of one bill, `filters.unassigned` those of no bill, `filters.mail` ' +
          '`{ id }` the attachments of one mail or `null` the files uploaded on their own, `filters.uuid` one file. Paged by `page` or `cursor` ' +
          "(the previous answer's `nextCursor`), pageSize ≤ 500 (default 50).",
        body: strictObject({
          filters: strictObject({
            payable: strictObject({ id: zId }).optional(),
            unassigned: z.boolean().optional(),
            mail: strictObject({ id: zId }).nullable().optional(),
            uuid: zUuid.optional(),
          }).optional(),
          ...pageFields,
        }).optional(),
        response: { 200: z.object({ data: z.array(fileAnswer), ...pageAnswerFields }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body;
      const f = body?.filters ?? {};
      return app.db.withInstance(instanceId, (tx) =>
        listFilePage(
          tx,
          instanceId,
          { payableId: f.payable?.id, unassigned: f.unassigned, mail: f.mail, uuid: f.uuid },
          { page: body?.page ?? 1, pageSize: body?.pageSize ?? DEFAULT_PAGE_SIZE, cursor: body?.cursor },
        ),
      );
    },
  );

  app.post(
    '/file/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Renames a file and/or makes it the voucher of a bill (`payable.id`; null detaches). Attaching a file of a pending mail ' +
          'marks the mail processed. 404 unknown file or bill; 409 `data.payable.id` when the file is the voucher of another bill.',
        body: strictObject({ uuid: zUuid, data: strictObject({ name: z.string().trim().min(1).max(255).optional(), payable: strictObject({ id: zId }).nullable().optional() }) }),
        response: { 200: fileAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { uuid, data } = request.body;
      return app.db.withInstance(instanceId, async (tx) => {
        const [row] = await tx.query<FileRow>(
          `UPDATE inbox_file SET name = coalesce($3, name), payable_id = CASE WHEN $4 THEN NULL ELSE payable_id END
            WHERE instance_id = $1 AND uuid = $2 RETURNING ${COLUMNS}`,
          [instanceId, uuid, data.name ?? null, data.payable === null],
        );
        if (!row) throw payableError('file_not_found', `File ${uuid} not found`);
        if (!data.payable) return toFile(row);
        const bill = await tx.query('SELECT 1 FROM payable WHERE instance_id = $1 AND id = $2', [instanceId, data.payable.id]);
        if (!bill.length) throw payableError('payable_not_found', `Payable ${data.payable.id} not found`);
        return attachFileToPayable(tx, instanceId, uuid, data.payable.id, 'data.payable.id');
      });
    },
  );

  app.post(
    '/file/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Deletes a file; 404 unknown.', body: strictObject({ uuid: zUuid }), response: { 200: okSchema, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const rows = await app.db.withInstance(instanceId, (tx) => tx.query('DELETE FROM inbox_file WHERE instance_id = $1 AND uuid = $2 RETURNING uuid', [instanceId, request.body.uuid]));
      if (!rows.length) throw payableError('file_not_found', `File ${request.body.uuid} not found`);
      return { ok: true as const };
    },
  );

  app.get(
    '/file/:id/serve',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The file\'s bytes with its content type (default application/pdf), inline, named by `content-disposition`; 404 unknown or of another instance.',
        params: z.object({ id: zUuid }),
        response: { 200: z.any().describe('the file bytes'), ...errorsWithNotFound },
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const [row] = await app.db.withInstance(instanceId, (tx) =>
        tx.query<{ name: string; mime_type: string; content: Uint8Array }>('SELECT name, mime_type, content FROM inbox_file WHERE instance_id = $1 AND uuid = $2', [
          instanceId,
          request.params.id,
        ]),
      );
      if (!row) throw payableError('file_not_found', `File ${request.params.id} not found`);
      return reply
        .type(row.mime_type || 'application/pdf')
        .header('content-disposition', `inline; filename="${row.name.replace(/[^\w.\- ]/g, '_')}"`)
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(row.content));
    },
  );
};
