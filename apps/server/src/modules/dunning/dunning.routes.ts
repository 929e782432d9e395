/**
 * /api/dunning/* (issue 15 §3, decision 030): the instance's reminder levels and accounts, the
 * dunning run (preview and confirmation) and the reminders with their letters. Registered by
 * app.ts under /api with the mailer (reminders are e-mailed through the messaging outbox).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { strictObject, zDate, zId, zUuid } from '@bilan/domain';
import { auth } from '../../http/access.js';
import { errors, errorsWithConflict, errorsWithNotFound, pageAnswerFields, pageFields } from '../../http/schemas.js';
import type { Mailer } from '../messaging/messaging.service.js';
import { DUNNING_LANGS, PLACEHOLDERS } from './dunning.defaults.js';
import { confirmRun, getDunningSettings, listReminderPage, previewRun, reminderPdf, saveDunningSettings } from './dunning.service.js';

const money = z.string();
const lang = z.enum(DUNNING_LANGS);
const levelText = strictObject({ title: z.string().min(1).max(100), body: z.string().min(1).max(4000) });
const texts = strictObject({ de: levelText, fr: levelText, it: levelText, en: levelText });
const account = z.object({ id: z.number().int(), number: z.string(), name: z.string() });

const settingsAnswer = z.object({
  levels: z.array(z.object({ level: z.number().int(), days: z.number().int(), fee: money, texts })),
  isCustom: z.boolean().describe('false while the built-in levels apply'),
  feeAccount: account,
  interestAccount: account,
  interestRate: z.string().nullable().describe("yearly late-payment interest as a fraction ('0.05' = 5 %, OR art. 104), null = none"),
  placeholders: z.record(z.string(), z.string()),
});

const reminderAnswer = z.object({
  uuid: z.string(),
  invoice: z.object({ uuid: z.string(), refNumber: z.string(), company: z.object({ uuid: z.string(), name: z.string() }) }),
  level: z.number().int(),
  title: z.string(),
  date: z.string(),
  openBefore: money.describe('open amount before this reminder (invoice currency)'),
  fee: money,
  interest: money,
  amountDue: money.describe('the QR-bill amount: open + fee + interest'),
  currency: z.string(),
  delivery: z.enum(['email', 'print']),
  lang,
  messageUuids: z.array(z.string()).describe('the e-mails queued (outbox), one per contact; empty for print'),
  createdAt: z.string(),
});

const candidateAnswer = z.object({
  invoice: z.object({
    uuid: z.string(),
    refNumber: z.string(),
    company: z.object({ uuid: z.string(), name: z.string() }),
    dateInvoice: z.string(),
    dateDue: z.string(),
    currency: z.string(),
    total: money,
  }),
  openAmount: money,
  principalOpen: money.describe('what is open of the invoice itself (payments settle fees and interest first, OR art. 85)'),
  daysOverdue: z.number().int(),
  currentLevel: z.number().int().describe('0 = no reminder yet'),
  lastReminderDate: z.string().nullable(),
  nextLevel: z.number().int().nullable().describe('null once the last level was sent'),
  nextLevelTitle: z.string().nullable(),
  nextLevelDate: z.string().nullable(),
  isDue: z.boolean(),
  fee: money,
  interest: money,
  amountDue: money,
  contacts: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string(), lang })),
});

export const dunningRoutes: FastifyPluginAsyncZod<{ mailer: Mailer }> = async (app, { mailer }) => {
  const tags = ['dunning'];

  app.get(
    '/dunning/settings',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: "The instance's reminder levels (stored or the 3 defaults), the fee and interest accounts and the interest rate.",
        response: { 200: settingsAnswer, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return { ...(await app.db.withInstance(instanceId, (tx) => getDunningSettings(tx, instanceId))), placeholders: PLACEHOLDERS };
    },
  );

  app.post(
    '/dunning/settings/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Replaces the reminder levels (1–9, in order: level 1 `days` after the due date, level n `days` after level n − 1; `fee` in the ' +
          "books' currency; title and text per language with {{placeholders}}), the fee and interest accounts (null = 3600 / 6950) and " +
          "`interestRate` (fraction, null = none). 400 naming the field (`levels.N.fee`, `feeAccountId`, `interestRate`, …).",
        body: strictObject({
          levels: z.array(strictObject({ days: z.number().int().min(0).max(3650), fee: z.string().max(20), texts })).min(1).max(9),
          feeAccountId: zId.nullish(),
          interestAccountId: zId.nullish(),
          interestRate: z.string().max(10).nullish(),
        }),
        response: { 200: settingsAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      return { ...(await app.db.withInstance(instanceId, (tx) => saveDunningSettings(tx, instanceId, userId, request.body))), placeholders: PLACEHOLDERS };
    },
  );

  app.post(
    '/dunning/run/preview',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The dunning run at `date` (default today): sent invoices overdue with something of them open (after part payments and ' +
          'credit notes), with days overdue, current and next level, its date, fee, interest and the amount due. Paid or fully ' +
          'credited invoices are not listed.',
        body: strictObject({ date: zDate.nullish() }),
        response: { 200: z.object({ date: z.string(), data: z.array(candidateAnswer) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const data = await app.db.withInstance(instanceId, (tx) => previewRun(tx, instanceId, request.body.date));
      return { date: request.body.date ?? new Date().toISOString().slice(0, 10), data };
    },
  );

  app.post(
    '/dunning/run/confirm',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description:
          'Sends the chosen reminders in one transaction: per item a reminder of `level` (the invoice\'s next level, due at `date`), ' +
          'its fee and interest posted (debit receivable 1100 / credit the fee or interest account) and added to the invoice\'s open ' +
          'amount, the letter (PDF with a QR-bill for open + fee + interest) e-mailed to `contactIds` (default all contacts) through ' +
          'the outbox, or kept for print. A reminder of the same invoice and level that exists is answered with `repeated: true` ' +
          'and nothing is booked again (parallel calls included). 400 `items.N.contactIds`; 404 unknown invoice or contact; 409 ' +
          '`items.N.level` not the next level or not due yet, `items.N.invoiceUuid` not open, lock date.',
        body: strictObject({
          date: zDate.nullish(),
          items: z
            .array(
              strictObject({
                invoiceUuid: zUuid,
                level: z.number().int().min(1).max(9),
                delivery: z.enum(['email', 'print']),
                contactIds: z.array(zId).max(20).nullish(),
                lang: lang.nullish(),
              }),
            )
            .min(1)
            .max(200),
        }),
        response: { 200: z.object({ data: z.array(reminderAnswer.extend({ repeated: z.boolean() })) }), ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const result = await app.db.withInstance(instanceId, (tx) => confirmRun(tx, instanceId, userId, request.body, { mailer }));
      return { data: result.reminders };
    },
  );

  app.post(
    '/dunning/reminder/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The reminders of one invoice (`invoiceUuid`), or of all invoices, by invoice and level. Paged by `page` or `cursor` (the ' +
          "previous answer's `nextCursor`), pageSize ≤ 500 (default 50); `total` counted up to 10,000. 404 unknown invoice.",
        body: strictObject({ invoiceUuid: zUuid.optional(), ...pageFields }),
        response: { 200: z.object({ data: z.array(reminderAnswer), ...pageAnswerFields }), ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { invoiceUuid, page, pageSize, cursor } = request.body;
      return app.db.withInstance(instanceId, (tx) => listReminderPage(tx, instanceId, invoiceUuid, { page, pageSize, cursor }));
    },
  );

  app.post(
    '/dunning/reminder/pdf',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description: 'The reminder letter as issued (A4 with QR-bill for the amount due). Binary application/pdf. 404 unknown reminder.',
        body: strictObject({ uuid: zUuid }),
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const { pdf, filename } = await app.db.withInstance(instanceId, (tx) => reminderPdf(tx, instanceId, request.body.uuid));
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${filename}"`).send(pdf);
    },
  );
};
