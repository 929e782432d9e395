/** Recurring-invoice calls and shapes (/api/recurring/*, issue 15 §4). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type ApiBody, type ApiResult } from '../../lib/api';
import type { DocumentFormPayload, DocumentFormValues } from '../../lib/document-form';
import { msg } from '../../lib/i18n';

export type RecurringTemplate = ApiResult<'post', '/api/recurring/detail'>;
export type RecurringData = ApiBody<'/api/recurring/insert'>['data'];
export type Interval = RecurringData['interval'];
export type Schedule = Pick<RecurringData, 'interval' | 'endDate' | 'sendMode' | 'contactIds'>;

export const INTERVAL_LABEL: Record<Interval, string> = { monthly: msg('Monthly'), quarterly: msg('Quarterly'), yearly: msg('Yearly') };

export const recurringKey = ['recurring'] as const;
/** Rows a page of the recurring-invoices list. */
export const RECURRING_PAGE_SIZE = 50;
/** A page (from 1) of the templates, newest first. */
export const recurringListQuery = (page = 1) =>
  queryOptions({
    queryKey: [...recurringKey, 'list', page],
    queryFn: ({ signal }) => api.get('/api/recurring/list', { query: { page, pageSize: RECURRING_PAGE_SIZE }, signal }),
    placeholderData: keepPreviousData,
  });
export const recurringDetailQuery = (uuid: string) =>
  queryOptions({ queryKey: [...recurringKey, 'detail', uuid], queryFn: ({ signal }) => api.post('/api/recurring/detail', { uuid }, { signal }) });
export const formOptionsQuery = () =>
  queryOptions({ queryKey: ['invoice', 'form-options'], queryFn: ({ signal }) => api.get('/api/invoice/form-options', { signal }) });
export const contactsQuery = (companyUuid: string) =>
  queryOptions({
    queryKey: ['company', 'contacts', companyUuid],
    queryFn: ({ signal }) => api.post('/api/company/contact/list', { company: { uuid: companyUuid } }, { signal }),
  });

/** Days from `from` to `to` (YYYY-MM-DD). */
const daysFrom = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The form's payload and the schedule as a template: the first date is the start, the due date gives the payment term. */
export function recurringDataOf({ head, items }: DocumentFormPayload, schedule: Schedule): RecurringData {
  const { dateInvoice, dateDue, ...rest } = head;
  return {
    ...rest,
    ...schedule,
    startDate: dateInvoice,
    paymentTermDays: dateDue ? Math.max(0, daysFrom(dateInvoice, dateDue)) : 30,
    items: items.map(({ id: _id, ...item }) => item),
  };
}

/** A template in the invoice form's names: its start date and the due date of that first invoice. */
export const formValuesOf = (template: RecurringTemplate): DocumentFormValues => {
  const due = new Date(Date.parse(`${template.startDate}T00:00:00Z`) + template.paymentTermDays * 86_400_000).toISOString().slice(0, 10);
  return {
    refNumber: `R-${template.id}`,
    company: template.company,
    address: template.address,
    paymentProfile: { id: template.paymentProfile.id, type: 0, iban: null, account: null },
    vat: template.vat,
    currency: template.currency,
    fxRate: template.fxRate,
    dateInvoice: template.startDate,
    dateDue: due,
    description: template.description,
    items: template.items,
  };
};

export const insertRecurring = (data: RecurringData) => api.post('/api/recurring/insert', { data });
export const updateRecurring = (uuid: string, data: RecurringData) => api.post('/api/recurring/update', { uuid, data });
export const deleteRecurring = (uuid: string) => api.post('/api/recurring/delete', { uuid });
export const recurringOfInvoice = (uuid: string) => api.post('/api/recurring/by-invoice', { uuid });
