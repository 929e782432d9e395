/**
 * Financial statements under /api/accounting/statement (issue 12 §4; spec §2.2 `/accounting/statement`
 * "Financials"): balance sheet, income statement, and both as PDF, XLSX or CSV.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { csvDialectOf } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { auth } from '../../http/access.js';
import { requirePort } from '../../lib/ports.js';
import { errors } from './accounting.schemas.js';
import { invalidField } from './accounting.errors.js';
import { balanceSheetBody, balanceSheetSchema, incomeStatementBody, incomeStatementSchema, statementExportBody, type StatementExportBody } from './statements.schemas.js';
import { balanceSheet, incomeStatement, yearBefore } from './statements.service.js';
import { balanceSheetTable, exportFileName, incomeStatementTable, statementsCsv, statementsXlsx, type ExportTable, type Letterhead } from './statements.export.js';
import { renderStatementsPdf } from './statements.pdf.js';

const tags = ['accounting'];

/** The company a statement is of (name, address, UID), asked of the modules that own it (wiring). */
export type LetterheadPort = (tx: Tx, instanceId: string) => Promise<Letterhead>;

export interface StatementRouteOptions {
  letterhead?: LetterheadPort;
}

const SIGNS =
  'Amounts: decimal strings with 2 decimals in the instance currency, with the natural sign of the side ' +
  '(assets and expenses debit − credit; liabilities, equity and revenue credit − debit), so a contra balance shows negative.';

/** The prior-period date: absent → a year earlier, null → none. */
const compareDateOf = (date: string, compareDate: string | null | undefined) => (compareDate === undefined ? yearBefore(date) : compareDate);

/**
 * The income statement's period and prior period, checked: dateFrom ≤ dateTo; compareFrom and
 * compareTo both absent (a year earlier), both null (none) or both dates in order. 400 naming the field.
 */
function incomePeriods(body: { dateFrom?: string; dateTo?: string; compareFrom?: string | null; compareTo?: string | null }) {
  const { dateFrom, dateTo, compareFrom, compareTo } = body;
  if (!dateFrom) throw invalidField('dateFrom', 'dateFrom is required for an income statement');
  if (!dateTo) throw invalidField('dateTo', 'dateTo is required for an income statement');
  if (dateFrom > dateTo) throw invalidField('dateFrom', `must be on or before dateTo ${dateTo}`);
  if (compareFrom === undefined && compareTo === undefined) return { dateFrom, dateTo, compare: { dateFrom: yearBefore(dateFrom), dateTo: yearBefore(dateTo) } };
  if (compareFrom === null && compareTo === null) return { dateFrom, dateTo, compare: null };
  if (!compareFrom) throw invalidField('compareFrom', 'give compareFrom together with compareTo (both null: no prior-period column)');
  if (!compareTo) throw invalidField('compareTo', 'give compareTo together with compareFrom (both null: no prior-period column)');
  if (compareFrom > compareTo) throw invalidField('compareFrom', `must be on or before compareTo ${compareTo}`);
  return { dateFrom, dateTo, compare: { dateFrom: compareFrom, dateTo: compareTo } };
}

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

/** statement/balance-sheet, statement/income and statement/export. Read access; `letterhead` is required. */
export const statementRoutes: FastifyPluginAsyncZod<StatementRouteOptions> = async (app, options) => {
  const letterhead = requirePort(options, 'letterhead', 'statementRoutes');

  app.post(
    '/statement/balance-sheet',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Balance sheet (Bilanz) at `date` in the structure of OR 959a: sides → sections → lines → accounts, with section and side totals ' +
          'and a prior-period column at `compareDate` (absent: the same date a year earlier; null: none). Closing entries included; the ' +
          'revenue and expense balances not yet closed are the result in equity (line annualResult, an entry with id null), so ' +
          '`balanced` (assets = liabilities + equity) holds whenever the books balance. ' +
          SIGNS,
        body: balanceSheetBody,
        response: { 200: balanceSheetSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const { date, compareDate, lang = 'en' } = request.body;
      return app.db.withInstance(instanceId, (tx) => balanceSheet(tx, instanceId, { date, compareDate: compareDateOf(date, compareDate), lang }));
    },
  );

  app.post(
    '/statement/income',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'Income statement (Erfolgsrechnung, nature of expense method, OR 959b) of `dateFrom`…`dateTo` (inclusive): sections → lines → ' +
          'accounts; each section closes with the running result (operating income, EBITDA, EBIT, ordinary result, result before ' +
          'taxes, annual profit or loss). Year-end closing entries of the period are left out. Prior period: compareFrom…compareTo ' +
          '(both absent: the same period a year earlier; both null: none). ' +
          SIGNS,
        body: incomeStatementBody,
        response: { 200: incomeStatementSchema, ...errors },
      },
    },
    async (request) => {
      const { instanceId } = auth(request);
      const periods = incomePeriods(request.body);
      return app.db.withInstance(instanceId, (tx) => incomeStatement(tx, instanceId, { ...periods, lang: request.body.lang ?? 'en' }));
    },
  );

  app.post(
    '/statement/export',
    {
      config: { access: 'read' },
      schema: {
        tags,
        description:
          'The balance sheet (kind balance-sheet: `date` required), the income statement (income: `dateFrom`, `dateTo`) or both ' +
          '(balance sheet at `date`, default `dateTo`) as a file: pdf (A4, the look of the invoices), xlsx (number cells) or csv ' +
          '(`statement,kind,section,line,account,label,amount[,compare]`, `,`-separated, `.` decimals, UTF-8). Labels in `lang`; ' +
          'prior-period columns as in the statement calls. Binary answer with Content-Disposition, e.g. Bilanz-2025-12-31.pdf.',
        body: statementExportBody,
        // No response schema, like /invoice/pdf: the answer is a file (errors are the usual JSON bodies).
      },
    },
    async (request, reply) => {
      const { instanceId } = auth(request);
      const body: StatementExportBody = request.body;
      const { kind, format, lang, withAccounts } = body;
      const income = kind === 'balance-sheet' ? null : incomePeriods(body);
      const date = kind === 'income' ? undefined : (body.date ?? income?.dateTo);
      if (kind !== 'income' && !date) throw invalidField('date', 'date is required for a balance sheet');
      const { tables, company } = await app.db.withInstance(instanceId, async (tx) => {
        const list: ExportTable[] = [];
        if (date) list.push(balanceSheetTable(await balanceSheet(tx, instanceId, { date, compareDate: compareDateOf(date, body.compareDate), lang }), withAccounts));
        if (income) list.push(incomeStatementTable(await incomeStatement(tx, instanceId, { ...income, lang }), withAccounts));
        return { tables: list, company: await letterhead(tx, instanceId) };
      });
      const file = format === 'pdf' ? await renderStatementsPdf(tables, company, lang) : format === 'xlsx' ? await statementsXlsx(tables, company, lang) : Buffer.from(statementsCsv(tables, csvDialectOf(body.numberFormat ?? null), lang), 'utf8');
      const fileName = exportFileName(kind, lang, { date, dateFrom: income?.dateFrom, dateTo: income?.dateTo }, format);
      return reply.header('content-type', CONTENT_TYPES[format]).header('content-disposition', `attachment; filename="${fileName}"`).send(file);
    },
  );
};
