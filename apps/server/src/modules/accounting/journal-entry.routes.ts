/** Journal entries and postings under /api/accounting (spec §7.1 "Entries"). */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auth } from '../../http/access.js';
import { DEFAULT_PAGE_SIZE } from '../../db/paging.js';
import {
  accountPostingSchema,
  errors,
  errorsWithConflict,
  errorsWithEntryConflict,
  errorsWithNotFound,
  id,
  idRef,
  journalEntryData,
  journalEntryAnswer,
  journalEntryDetailAnswer,
  journalLineAnswer,
  ledgerDate,
  okSchema,
  pageAnswerFields,
  pageFields,
  strictObject,
} from './accounting.schemas.js';
import { fieldsUnder } from './accounting.errors.js';
import {
  changeJournalLine,
  deleteJournalEntry,
  documentOfJournalEntry,
  getJournalEntry,
  listAccountPostings,
  listJournalEntries,
  mergeJournalEntries,
  postJournalEntryDetailed,
  replaceJournalEntry,
  type EntryChangeContext,
  type EntryLineInput,
} from './journal-entry.service.js';
import type { DocumentResolvers } from './document-posting.js';
import { auditClient } from '../audit/audit.service.js';

const tags = ['accounting'];

const CURRENCY_RULE =
  '`amount` is the absolute amount in the instance currency (2 decimals, > 0); with `originalAmount` and `exchangeRate` ' +
  '(instance-currency units per unit of `currency`) it must equal round2(originalAmount × exchangeRate), half-up. `currency` ' +
  'defaults to the instance currency; a posting in another currency needs both. Debit total must equal credit total ' +
  '(400 on `data.entryAccounts`); 409 on or before the lock date (`data.dateLedger`). A line may name a `vatCode` ' +
  "(and `vatEntry` 'gross' | 'net', default the code's): it is split into its base and the code's tax posting(s) at the " +
  'rate of the ledger date, tax rounded half-up to the cent per line, and debit = credit is checked after the split; an ' +
  'unknown or inactive code is 400 on `data.entryAccounts.N.vatCode`. Each answered line shows its `vat`.';

type EntryData = z.infer<typeof journalEntryData>;

const toPostings = (data: EntryData): EntryLineInput[] =>
  data.entryAccounts.map((line) => ({
    accountId: line.account.id,
    amount: line.amount,
    direction: line.direction,
    currency: line.currency,
    originalAmount: line.originalAmount,
    exchangeRate: line.exchangeRate,
    description: line.description,
    vatCode: line.vatCode,
    vatEntry: line.vatEntry,
  }));

const DOCUMENT_RULE =
  "An entry posted by a document (source other than 'manual' and 'import': invoice, bill, payment, bank, …) is changed only " +
  "through its document: 409 with `code: 'document_posting'` and `document: { type, reference, uuid, link }`.";

/** Options of the journal routes: how to name the document behind an entry (wiring/wiring.ts). */
export interface JournalEntryRouteOptions {
  documents: DocumentResolvers;
}

/**
 * entry/insert, update, detail, delete, list, account/list, account/update and merge. Changes of
 * manual entries are written to the audit trail (issue 11 §2); document postings are refused.
 */
export const journalEntryRoutes: FastifyPluginAsyncZod<JournalEntryRouteOptions> = async (app, { documents }) => {
  const changeContext = (request: FastifyRequest): EntryChangeContext => ({ actor: { userId: auth(request).userId, ...auditClient(request) }, documents });

  app.post(
    '/entry/insert',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Posts a journal entry. ${CURRENCY_RULE}`,
        body: strictObject({ data: journalEntryData }),
        response: { 200: journalEntryAnswer, ...errorsWithConflict },
      },
    },
    async (request) => {
      const { instanceId, userId } = auth(request);
      const { data } = request.body;
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, (tx) =>
          postJournalEntryDetailed(tx, instanceId, userId, {
            dateLedger: data.dateLedger,
            description: data.description,
            source: 'manual',
            lines: toPostings(data),
          }),
        ),
      );
    },
  );

  app.post(
    '/entry/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Replaces date, description and postings of an entry (postings get new ids). ${CURRENCY_RULE} Old and new date count for the lock. ${DOCUMENT_RULE} Audited (before and after).`,
        body: strictObject({ id, data: journalEntryData }),
        response: { 200: journalEntryAnswer, ...errorsWithEntryConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { id: entryId, data } = request.body;
      const context = changeContext(request);
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, (tx) =>
          replaceJournalEntry(tx, instanceId, entryId, { dateLedger: data.dateLedger, description: data.description, lines: toPostings(data) }, context),
        ),
      );
    },
  );

  app.post(
    '/entry/detail',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'One journal entry with its postings and, for an entry posted by a document, that document (`document`: type, reference, uuid, link; null otherwise); 404 for an unknown id or one of another instance.',
        body: strictObject({ id }),
        response: { 200: journalEntryDetailAnswer, ...errorsWithNotFound },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      return app.db.withInstance(instanceId, async (tx) => ({
        ...(await getJournalEntry(tx, instanceId, request.body.id)),
        document: await documentOfJournalEntry(tx, instanceId, request.body.id, documents),
      }));
    },
  );

  app.post(
    '/entry/delete',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Deletes a journal entry and its postings; 404 unknown id, 409 on or before the lock date. ${DOCUMENT_RULE} Audited.`,
        body: strictObject({ id }),
        response: { 200: okSchema, ...errorsWithEntryConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const context = changeContext(request);
      await app.db.withInstance(instanceId, (tx) => deleteJournalEntry(tx, instanceId, request.body.id, context));
      return { ok: true as const };
    },
  );

  app.post(
    '/entry/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'A page of journal entries by date then id; `text` matches the description, the id or the import key. Paged by `page` or by `cursor` ' +
          '(the previous answer\'s `nextCursor`); `total` is counted up to 10,000 (`totalCapped` above).',
        body: strictObject({
          filters: strictObject({
            dateFrom: ledgerDate.optional(),
            dateTo: ledgerDate.optional(),
            text: z.string().max(200).optional(),
            accountId: id.optional(),
          }).optional(),
          ...pageFields,
          order: z.enum(['asc', 'desc']).default('asc'),
        }).optional(),
        response: { 200: z.object({ data: z.array(journalEntryAnswer), ...pageAnswerFields }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const body = request.body;
      return app.db.withInstance(instanceId, (tx) =>
        listJournalEntries(tx, instanceId, body?.filters ?? {}, {
          page: body?.page ?? 1,
          pageSize: body?.pageSize ?? DEFAULT_PAGE_SIZE,
          cursor: body?.cursor,
          order: body?.order ?? 'asc',
        }),
      );
    },
  );

  app.post(
    '/entry/account/list',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Postings of one account by date with the running balance (debit − credit) from `openingBalance` (before dateFrom) to `closingBalance` (at dateTo); ' +
          'paged by `page` or `cursor` (the previous answer\'s `nextCursor`), `total` counted up to 10,000; 404 unknown account.',
        body: strictObject({
          filters: strictObject({
            accountId: id,
            dateFrom: ledgerDate.optional(),
            dateTo: ledgerDate.optional(),
            text: z.string().max(200).optional(),
          }),
          ...pageFields,
        }),
        response: {
          200: z.object({
            data: z.array(accountPostingSchema),
            ...pageAnswerFields,
            openingBalance: z.string(),
            closingBalance: z.string(),
          }),
          ...errorsWithNotFound,
        },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { filters, page, pageSize, cursor } = request.body;
      return app.db.withInstance(instanceId, (tx) => listAccountPostings(tx, instanceId, filters, { page, pageSize, cursor }));
    },
  );

  app.post(
    '/entry/account/update',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Moves one posting (journal line \`id\`) to another account and/or changes its description; 404 unknown line, 409 locked. ${DOCUMENT_RULE} Audited.`,
        body: strictObject({
          id,
          data: strictObject({ account: idRef.optional(), description: z.string().max(500).nullable().optional() }),
        }),
        response: { 200: journalLineAnswer, ...errorsWithEntryConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { id: lineId, data } = request.body;
      const context = changeContext(request);
      return fieldsUnder('data', () =>
        app.db.withInstance(instanceId, (tx) =>
          changeJournalLine(tx, instanceId, lineId, { accountId: data.account?.id, description: data.description }, context),
        ),
      );
    },
  );

  app.post(
    '/entry/merge',
    {
      config: { access: 'write' },
      schema: {
        tags,
        description: `Moves entry2's postings into entry1 and deletes entry2; both must have the same date (400); 409 locked. ${DOCUMENT_RULE} Audited.`,
        body: strictObject({ entry1: id, entry2: id }),
        response: { 200: journalEntryAnswer, ...errorsWithEntryConflict },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { entry1, entry2 } = request.body;
      const context = changeContext(request);
      return app.db.withInstance(instanceId, (tx) => mergeJournalEntries(tx, instanceId, entry1, entry2, context));
    },
  );
};
