/** VAT return calls and shapes (docs/api.md "VAT return", /api/accounting/vat). */
import { queryOptions } from '@tanstack/react-query';
import type { VatSettingsInput } from '@bilan/domain';
import { api, fetchFile, type ApiResult } from '../../lib/api';

export type VatSettings = NonNullable<ApiResult<'get', '/api/accounting/vat/settings'>['settings']>;
export type VatPeriodList = ApiResult<'get', '/api/accounting/vat/period/list'>;
export type VatPeriodStatus = VatPeriodList['periods'][number];
export type VatReturn = ApiResult<'post', '/api/accounting/vat/return/compute'>;
export type VatFiguresAnswer = VatReturn['figures'];
export type VatReturnSummary = VatReturn['returns'][number];
export type VatDrillDown = ApiResult<'post', '/api/accounting/vat/return/postings'>;
export type SubmissionType = 1 | 2 | 3;

/** Under 'accounting': posting an entry or a lock refreshes the return too. */
export const vatKey = ['accounting', 'vat'] as const;

export { vatSettingsQuery } from '../../lib/vat-settings';

export const vatPeriodsQuery = (year: number | null) =>
  queryOptions({
    queryKey: ['accounting', 'vat', 'periods', year],
    queryFn: ({ signal }) => api.get('/api/accounting/vat/period/list', { query: year === null ? {} : { year }, signal }),
  });

export interface VatPeriodRequest {
  dateFrom: string;
  dateTo: string;
  type: SubmissionType;
}

export const vatReturnQuery = (request: VatPeriodRequest | null) =>
  queryOptions({
    queryKey: ['accounting', 'vat', 'return', request],
    queryFn: ({ signal }) => api.post('/api/accounting/vat/return/compute', request!, { signal }),
    enabled: request !== null,
  });

export const vatDrillQuery = (request: { dateFrom: string; dateTo: string; ziffer: string; ratePercent?: string } | null) =>
  queryOptions({
    queryKey: ['accounting', 'vat', 'postings', request],
    queryFn: ({ signal }) => api.post('/api/accounting/vat/return/postings', request!, { signal }),
    enabled: request !== null,
  });

export const updateVatSettings = (data: VatSettingsInput) => api.post('/api/accounting/vat/settings/update', { data: data as never });

export const fileVatReturn = (request: VatPeriodRequest) => api.post('/api/accounting/vat/return/file', request);

/** The instance's VAT number (Settings), proposed when the VAT registration is set up. */
export const instanceVatNumberQuery = () =>
  queryOptions({ queryKey: ['instance', 'detail'], queryFn: ({ signal }) => api.get('/api/instance/detail', { signal }), select: (detail) => detail.vatNumber });

type ExportPath = '/api/accounting/vat/return/xml' | '/api/accounting/vat/return/pdf' | '/api/accounting/vat/return/filed/xml' | '/api/accounting/vat/return/filed/pdf';

/** POSTs an export call with the bearer token and answers the file (XML or PDF) as a Blob. */
export async function fetchVatFile(path: ExportPath, body: Record<string, unknown>): Promise<Blob> {
  return (await fetchFile('POST', path, body)).blob();
}

/** The file name the server proposes (content-disposition), e.g. vat-return-2024-01-01-2024-03-31-1.xml. */
export const vatFileName = (dateFrom: string, dateTo: string, type: number, extension: 'xml' | 'pdf') => `vat-return-${dateFrom}-${dateTo}-${type}.${extension}`;
