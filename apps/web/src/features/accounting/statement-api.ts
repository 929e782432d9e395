/** Financial statements calls and shapes (docs/api.md "Financial statements"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';

export type BalanceSheet = ApiResult<'post', '/api/accounting/statement/balance-sheet'>;
export type IncomeStatement = ApiResult<'post', '/api/accounting/statement/income'>;
export type StatementSection = BalanceSheet['sides'][number]['sections'][number];
export type StatementLine = StatementSection['lines'][number];
export type StatementTotal = StatementSection['total'];
export type StatementLang = BalanceSheet['lang'];

type BalanceSheetBody = ApiBody<'/api/accounting/statement/balance-sheet'>;
type IncomeStatementBody = ApiBody<'/api/accounting/statement/income'>;
export type StatementExportBody = ApiBody<'/api/accounting/statement/export'>;

export const balanceSheetQuery = (body: BalanceSheetBody) =>
  queryOptions({
    queryKey: ['accounting', 'statement', 'balance-sheet', body],
    queryFn: ({ signal }) => api.post('/api/accounting/statement/balance-sheet', body, { signal }),
    placeholderData: keepPreviousData,
  });

export const incomeStatementQuery = (body: IncomeStatementBody) =>
  queryOptions({
    queryKey: ['accounting', 'statement', 'income', body],
    queryFn: ({ signal }) => api.post('/api/accounting/statement/income', body, { signal }),
    placeholderData: keepPreviousData,
  });

/** The file name the server gives in Content-Disposition (`attachment; filename="Bilanz-2025-12-31.pdf"`). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/** POST /api/accounting/statement/export: the file as a Blob and its name (the answer is binary). */
export async function fetchStatementExport(body: StatementExportBody): Promise<{ blob: Blob; fileName: string }> {
  const response = await fetchFile('POST', '/api/accounting/statement/export', body);
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get('content-disposition'), `statement.${body.format}`) };
}
