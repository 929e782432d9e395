/** Salary import (issue 16 §3, docs/api.md "Salary"): the wage-type mapping, preview and posting of a payroll journal. */
import { queryOptions } from '@tanstack/react-query';
import { api, type ApiBody, type ApiResult } from '../../lib/api';

export const salaryKey = ['salary'] as const;

export type WageTypes = ApiResult<'get', '/api/salary/wage-type/list'>;
export type WageType = WageTypes['data'][number];
export type SalaryImportBody = ApiBody<'/api/salary/import'>;
export type SalaryPreview = ApiResult<'post', '/api/salary/import/preview'>;
export type SalaryImportResult = ApiResult<'post', '/api/salary/import'>;

export const wageTypesQuery = () =>
  queryOptions({
    queryKey: [...salaryKey, 'wage-types'],
    queryFn: ({ signal }) => api.get('/api/salary/wage-type/list', { signal }),
  });

export const salaryImportsQuery = () =>
  queryOptions({
    queryKey: [...salaryKey, 'imports'],
    queryFn: ({ signal }) => api.get('/api/salary/import/list', { signal }),
  });

export const saveWageTypes = (data: WageType[]) => api.post('/api/salary/wage-type/save', { data });
export const previewSalaryImport = (body: SalaryImportBody) => api.post('/api/salary/import/preview', body);
export const postSalaryImport = (body: SalaryImportBody) => api.post('/api/salary/import', body);

/** The file as the API takes it: CSV as text, XLSX as base64. */
export async function fileBody(file: File): Promise<SalaryImportBody['file']> {
  if (!file.name.toLowerCase().endsWith('.xlsx')) return { name: file.name, encoding: 'text', content: await file.text() };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, encoding: 'base64', content: btoa(binary) };
}

/** A refused file's row errors (`fields["line N.column"]`) and unknown accounts (`fields.account`), in line order. */
export function rowProblems(fields: Record<string, string> | undefined): { line: number | null; column: string; message: string }[] {
  return Object.entries(fields ?? {})
    .map(([key, message]) => {
      const match = /^line (\d+)(?:\.(.+))?$/.exec(key);
      return match ? { line: Number(match[1]), column: match[2] ?? 'header', message } : { line: null, column: key, message };
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
