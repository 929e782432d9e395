/**
 * The outbox and the e-mail templates (issue 15 §1): /api/outbox/* lists every stored message of
 * the instance with its status and the mail server's answer; /api/message-template/* reads and
 * edits the invoice e-mail per language. Shapes in docs/api.md "Messaging".
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { AppError } from '../../http/errors.js';
import { errors, errorsWithConflict, pageFields } from '../../http/schemas.js';
import { listMessages, messageExists, MESSAGE_KINDS, MESSAGE_STATUSES, type Mailer } from './messaging.service.js';
import { INVOICE_PLACEHOLDERS, invoiceTemplates, resetInvoiceTemplate, saveInvoiceTemplate, TEMPLATE_LANGS } from './templates.service.js';

/** A stored message as the outbox and an invoice's history show it. */
export const messageAnswer = z.object({
  id: z.number().int(),
  uuid: z.string(),
  kind: z.enum(MESSAGE_KINDS).describe('what the message is about: invoice (documentRef = invoice uuid), invitation (documentRef = invitation id)'),
  documentRef: z.string().nullable(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  status: z
    .enum(MESSAGE_STATUSES)
    .describe('queued → sending → sent, or failed (retried by the job runner); not_sent: no mail server configured (BILAN_SMTP_URL)'),
  attempts: z.number().int(),
  serverResponse: z.string().nullable().describe("the mail server's last answer, e.g. '250 2.0.0 Ok' or the refusal"),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() })),
});

const templateAnswer = z.object({
  kind: z.literal('invoice'),
  lang: z.enum(TEMPLATE_LANGS),
  subject: z.string(),
  body: z.string(),
  isCustom: z.boolean().describe('false while the built-in default applies'),
});

export const messagingRoutes: FastifyPluginAsyncZod<{ mailer: Mailer }> = async (app, { mailer }) => {
  const tags = ['messaging'];

  app.post(
    '/outbox/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          "Every e-mail of the instance, newest first, with its status and the mail server's answer. `configured` is false " +
          "without a mail server (BILAN_SMTP_URL): messages are then kept as not_sent ('not sent — no mail server configured').",
        body: strictObject({ status: z.enum(MESSAGE_STATUSES).optional(), ...pageFields }).optional(),
        response: { 200: z.object({ configured: z.boolean(), data: z.array(messageAnswer), total: z.number().int() }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { status, page = 1, pageSize = 50 } = request.body ?? {};
      const result = await app.db.withInstance(instanceId, (tx) => listMessages(tx, { status, page, pageSize }));
      return { configured: mailer.isConfigured, ...result };
    },
  );

  app.post(
    '/outbox/retry',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Queues a failed or not-sent message again for delivery. 409 when it is queued, being sent or sent already, or when no ' +
          'mail server is configured; 404 unknown message.',
        body: strictObject({ uuid: zUuid }),
        response: { 200: messageAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      if (!mailer.isConfigured) throw new AppError('conflict', 'no mail server configured (BILAN_SMTP_URL): the message stays in the outbox', { uuid: 'no mail server configured' });
      return app.db.withInstance(instanceId, async (tx) => {
        if (!(await messageExists(tx, request.body.uuid))) throw new AppError('not_found', 'message not found', { uuid: 'message not found' });
        const queued = await mailer.requeue(tx, instanceId, request.body.uuid);
        if (!queued) throw new AppError('conflict', 'the message is queued, being sent or sent already', { uuid: 'not failed' }, { code: 'already_done' });
        return queued;
      });
    },
  );

  app.get(
    '/message-template/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: `The invoice e-mail per language (de, fr, it, en): the instance's own or the default. Placeholders: ${Object.entries(INVOICE_PLACEHOLDERS)
          .map(([name, meaning]) => `{{${name}}} ${meaning}`)
          .join('; ')}.`,
        response: { 200: z.object({ data: z.array(templateAnswer), placeholders: z.record(z.string(), z.string()) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const data = await app.db.withInstance(instanceId, (tx) => invoiceTemplates(tx));
      return { data, placeholders: INVOICE_PLACEHOLDERS };
    },
  );

  app.post(
    '/message-template/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: 'Stores the invoice e-mail of one language; `reset: true` goes back to the default text.',
        body: strictObject({
          lang: z.enum(TEMPLATE_LANGS),
          subject: z.string().trim().min(1, 'This field is required').max(200).optional(),
          body: z.string().trim().min(1, 'This field is required').max(10000).optional(),
          reset: z.boolean().optional(),
        }),
        response: { 200: templateAnswer, ...errors },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { lang, subject, body, reset } = request.body;
      if (!reset && (!subject || !body)) {
        const fields = { ...(!subject ? { subject: 'This field is required' } : {}), ...(!body ? { body: 'This field is required' } : {}) };
        throw new AppError('validation', `${Object.keys(fields)[0]}: This field is required`, fields);
      }
      return app.db.withInstance(instanceId, (tx) => (reset ? resetInvoiceTemplate(tx, lang) : saveInvoiceTemplate(tx, instanceId, userId, lang, subject!, body!)));
    },
  );
};
