/**
 * /api/company/contact/*: a company's contact people (issue 15 §1) — who receives its invoices by
 * e-mail, in which language, and the payment terms the invoice form proposes.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contactDataSchema, contactInsertSchema, contactLangs, strictObject, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errorsWithNotFound, okSchema } from './companies.schemas.js';
import { deleteContact, insertContact, listContacts, updateContact } from './contacts.service.js';

export const contactAnswer = z.object({
  id: z.number().int(),
  company: z.object({ uuid: z.string() }),
  name: z.string(),
  email: z.string(),
  lang: z.enum(contactLangs).describe('invoice language: de, fr, it, en'),
  paymentTermsDays: z.number().int().nullable().describe("days from invoice date to due date; null = the instance's default"),
});

export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['companies'];

  app.post(
    '/company/contact/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The contact people of a company, in insertion order (404 unknown company).',
        body: strictObject({ company: strictObject({ uuid: zUuid }) }),
        response: { 200: z.object({ data: z.array(contactAnswer), total: z.number().int() }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const data = await app.db.withInstance(instanceId, (tx) => listContacts(tx, instanceId, request.body.company.uuid));
      return { data, total: data.length };
    },
  );

  app.post(
    '/company/contact/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Adds a contact person: name, e-mail, invoice language (default de), payment terms in days (optional).',
        body: contactInsertSchema,
        response: { 200: contactAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => insertContact(tx, instanceId, request.body));
    },
  );

  app.post(
    '/company/contact/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: 'Replaces the fields of a contact person (404 unknown id).',
        body: strictObject({ id: zId, data: contactDataSchema }),
        response: { 200: contactAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => updateContact(tx, request.body.id, request.body.data));
    },
  );

  app.post(
    '/company/contact/delete',
    {
      config: { access: 'write' },
      schema: { tags, description: 'Removes a contact person (404 unknown id); messages sent to it stay in the outbox.', body: strictObject({ id: zId }), response: { 200: okSchema, ...errorsWithNotFound } },
    },
    async (request) => {
      const { instanceId } = auth(request);
      await app.db.withInstance(instanceId, (tx) => deleteContact(tx, request.body.id));
      return { ok: true as const };
    },
  );
};
