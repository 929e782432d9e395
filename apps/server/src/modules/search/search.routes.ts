/**
 * GET /api/search?q= (issue 17 §1, beyond the spec; decision 033): invoices, bills and expenses,
 * and journal entries found by number, amount, payment reference or text, for the command palette.
 * Each module searches its own tables (indexes of migrations 0043 and 0044); this module only reads
 * the query and merges the answers.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseAmountInput, toFixedAmount, toMoney } from '@bilan/domain';
import { priceReadsForSearch } from '../../db/search.js';
import { auth } from '../../http/access.js';
import { errors } from '../../http/schemas.js';
import { searchJournalEntries } from '../accounting/accounting.service.js';
import { searchInvoices } from '../invoicing/invoice-search.js';
import { searchBills } from '../payables/bill-search.js';

/** Hits per kind of document. */
const PER_KIND = 8;

const hitSchema = z.object({
  kind: z.enum(['invoice', 'bill', 'expense', 'entry']),
  number: z.number().int().describe('invoice number, bill or entry id'),
  date: z.string().describe('YYYY-MM-DD: invoice date, bill date or ledger date'),
  text: z.string().describe('the description'),
  amount: z.string().nullable().describe('bill total in its currency, entry total (debits) in the books\' currency; null for invoices'),
  currency: z.string().nullable(),
  status: z.string().nullable().describe('invoice: pending, sent, paid, denied; bill: its status name; entry: its source'),
  href: z.string().describe('the page of the document in the web app'),
});

const INVOICE_STATUS: Record<number, string> = { 1: 'pending', 2: 'sent', 3: 'paid', 4: 'denied' };

/** What a typed query can mean: a number, an amount, a payment reference, text (3 or more characters). */
export function readSearchQuery(q: string): { number?: number; amount?: string; reference?: string; text?: string } {
  const text = q.trim();
  const read: { number?: number; amount?: string; reference?: string; text?: string } = {};
  const number = /^(?:INV|EN|TG|#)?\s*(\d{1,9})$/i.exec(text);
  if (number) read.number = Number(number[1]);
  const amount = parseAmountInput(text);
  // Up to 15 digits before the point, as the amount columns hold (a 27-digit QR reference is no amount).
  if (amount !== null && /^\d{1,15}(\.\d{1,2})?$/.test(amount) && toMoney(amount).gt(0)) read.amount = toFixedAmount(amount);
  const compact = text.replace(/\s/g, '').toUpperCase();
  if (/^\d{27}$/.test(compact) || /^RF\d{2}[A-Z0-9]{1,21}$/.test(compact)) read.reference = compact;
  if (Array.from(text).length >= 3) read.text = text;
  return read;
}

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search',
    {
      config: { access: 'read' },
      schema: {
        tags: ['search'],
        description:
          'Finds invoices, bills and expenses, and journal entries: by number (12, INV12, EN12, #12), by amount (1081.00, 1 081,00, 1\'081.00: ' +
          'a bill\'s total, any posting of an entry), by QR or creditor reference, and by text (3 or more characters: each word of 2 or more ' +
          'characters found inside a word of the description, any case and order; words of 1 character are ignored). ' +
          `Up to ${PER_KIND} hits of each kind, newest first. 400 naming q when it is empty or longer than 100 characters.`,
        querystring: z.strictObject({ q: z.string().trim().min(1, 'This field is required').max(100, 'at most 100 characters') }),
        response: { 200: z.object({ data: z.array(hitSchema) }), ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const query = readSearchQuery(request.query.q);
      if (Object.keys(query).length === 0) return { data: [] };
      return app.db.withInstance(instanceId, async (tx) => {
        await priceReadsForSearch(tx);
        const invoices = query.number !== undefined || query.reference || query.text ? await searchInvoices(tx, instanceId, query, PER_KIND) : [];
        const bills = await searchBills(tx, instanceId, query, PER_KIND);
        const entries = await searchJournalEntries(tx, instanceId, { id: query.number, amount: query.amount, text: query.text }, PER_KIND);
        return {
          data: [
            ...invoices.map((invoice) => ({
              kind: 'invoice' as const,
              number: invoice.id,
              date: invoice.dateInvoice,
              text: invoice.description,
              amount: null,
              currency: null,
              status: INVOICE_STATUS[invoice.status] ?? null,
              href: `/invoice/${invoice.uuid}/detail`,
            })),
            ...bills.map((bill) => ({
              kind: bill.type === 1 ? ('expense' as const) : ('bill' as const),
              number: bill.id,
              date: bill.date,
              text: bill.description,
              amount: bill.amount,
              currency: bill.currency,
              status: bill.statusName,
              href: `/bill/${bill.uuid}/detail`,
            })),
            ...entries.map((entry) => ({
              kind: 'entry' as const,
              number: entry.id,
              date: entry.date,
              text: entry.description,
              amount: entry.total,
              currency: null,
              status: entry.source,
              href: `/accounting/entry/${entry.id}/detail`,
            })),
          ],
        };
      });
    },
  );
};
