/** Dunning calls (issue 15 §3, decision 030): settings, the run (preview, confirm) and reminders. */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type DunningSettings = ApiResult<'get', '/api/dunning/settings'>;
export type RunCandidate = ApiResult<'post', '/api/dunning/run/preview'>['data'][number];
export type Reminder = ApiResult<'post', '/api/dunning/reminder/list'>['data'][number];
export type ConfirmBody = ApiBody<'/api/dunning/run/confirm'>;

export const dunningKey = ['dunning'] as const;

export const dunningSettingsQuery = () =>
  queryOptions({ queryKey: [...dunningKey, 'settings'], queryFn: ({ signal }) => api.get('/api/dunning/settings', { signal }) });

export const runPreviewQuery = (date: string | null) =>
  queryOptions({
    queryKey: [...dunningKey, 'run', date],
    queryFn: ({ signal }) => api.post('/api/dunning/run/preview', date ? { date } : {}, { signal }),
  });

/** Rows a page of an invoice's reminders (the invoice detail's history). */
export const REMINDER_PAGE_SIZE = 20;
/** A page (from 1) of the reminders of one invoice, by level. */
export const remindersQuery = (invoiceUuid: string, page = 1) =>
  queryOptions({
    queryKey: [...dunningKey, 'reminders', invoiceUuid, page],
    queryFn: ({ signal }) => api.post('/api/dunning/reminder/list', { invoiceUuid, page, pageSize: REMINDER_PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });

export const confirmRun = (body: ConfirmBody) => api.post('/api/dunning/run/confirm', body);
export const saveDunningSettings = (body: ApiBody<'/api/dunning/settings/update'>) => api.post('/api/dunning/settings/update', body);

export async function fetchReminderPdf(uuid: string): Promise<Blob> {
  return (await fetchFile('POST', '/api/dunning/reminder/pdf', { uuid })).blob();
}
