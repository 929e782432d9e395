/**
 * /api/invoice/email and /api/invoice/messages (issue 15 §1): 'Send' with e-mail, and the e-mails
 * on an invoice's history. Registered by app.ts with the mailer and the public URL for share links.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zDate, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errorsWithConflict, errorsWithNotFound } from '../../http/schemas.js';
import type { Mailer } from '../messaging/messaging.service.js';
import { messageAnswer } from '../messaging/messaging.routes.js';
import { TEMPLATE_LANGS } from '../messaging/templates.service.js';
import { emailInvoice, invoiceMessages } from './invoice-mail.js';

export const invoiceMailRoutes: FastifyPluginAsyncZod<{ mailer: Mailer; publicUrl: string }> = async (app, { mailer, publicUrl }) => {
  const tags = ['invoices'];

  app.post(
    '/invoice/email',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          "Send by e-mail: a pending invoice is posted as sent (as /invoice/status/change to 2, at `ledgerDate`, default today) and " +
          'one e-mail per contact is stored and queued for delivery, with the invoice PDF (QR-bill) attached and a share link, from ' +
          "the instance's template of `lang` (default: the first contact's language). One transaction. An invoice sent already: 409 " +
          '`already_done` unless `resend: true`. Contacts must belong to the invoice\'s customer (400 `contactIds`). Without a mail ' +
          'server the messages are stored as not_sent (outbox).',
        body: strictObject({
          uuid: zUuid,
          contactIds: z.array(zId).min(1, 'choose at least one contact').max(20),
          lang: z.enum(TEMPLATE_LANGS).optional(),
          ledgerDate: zDate.optional(),
          resend: z.boolean().optional(),
        }),
        response: { 200: z.object({ status: z.number().int(), messages: z.array(messageAnswer) }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return app.db.withInstance(instanceId, (tx) => emailInvoice(tx, instanceId, userId, request.body, { mailer, publicUrl }));
    },
  );

  app.post(
    '/invoice/messages',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: "The e-mails of an invoice, newest first, each with its status and the mail server's answer (404 unknown invoice).",
        body: strictObject({ uuid: zUuid }),
        response: { 200: z.object({ data: z.array(messageAnswer) }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { data: await app.db.withInstance(instanceId, (tx) => invoiceMessages(tx, instanceId, request.body.uuid)) };
    },
  );
};
