/** Company, address, payment-profile, additional-property and settings calls (docs/api.md "Companies"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AdditionalPropertyInsert, CompanyAddress, CompanyInsert, CompanyUpdate, InstanceSettings, PaymentProfileInsert } from '@bilan/domain';
import { api, type ApiBody, type ApiResult } from '../../lib/api';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type Address = ApiResult<'post', '/api/address/list'>['data'][number];
export type Company = ApiResult<'post', '/api/company/detail'>;
/** A company of the list, with its open receivable and payable (instance currency). */
export type CompanyListItem = ApiResult<'post', '/api/company/list'>['data'][number];
export type PaymentProfile = ApiResult<'post', '/api/payment-profile/list'>['data'][number];
export type AdditionalProperty = ApiResult<'post', '/api/additional-property/list'>['data'][number];
export type ApAr = ApiResult<'post', '/api/company/ap-ar'>;
export type OpenItem = ApAr['receivables'][number];
export type InstanceDetail = ApiResult<'get', '/api/instance/detail'>;
export type RegisterCompany = ApiResult<'get', '/api/company-register/search'>['data'][number];
export type RegisterCompanyDetail = ApiResult<'get', '/api/company-register/detail'>;

export type CompanySortField = 'name' | 'uid' | 'city' | 'dateAdded';
export const COMPANY_PAGE_SIZE = 25;

export const companiesKey = ['companies'] as const;
export const instanceKey = ['instance'] as const;

export const companyListQuery = (text: string, sort: { by: CompanySortField; order: 'asc' | 'desc' }, page: number) =>
  queryOptions({
    queryKey: [...companiesKey, 'list', text, sort, page],
    queryFn: ({ signal }) =>
      api.post('/api/company/list', { filters: { text }, sort, page, pageSize: COMPANY_PAGE_SIZE, openAmounts: true }, { signal }),
    placeholderData: keepPreviousData,
  });

export const companyDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'detail', uuid],
    queryFn: ({ signal }) => api.post('/api/company/detail', { id: uuid }, { signal }),
  });

export const addressListQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'addresses', uuid],
    queryFn: ({ signal }) => api.post('/api/address/list', { filters: { company: { uuid } } }, { signal }),
  });

/** Payment profiles a page of the company page's list (a company rarely has more than a few). */
export const PROFILE_PAGE_SIZE = 50;

/** A page (from 1) of the active payment profiles of company `uuid`, by id. */
export const paymentProfileListQuery = (uuid: string, page = 1) =>
  queryOptions({
    queryKey: [...companiesKey, 'payment-profiles', uuid, page],
    queryFn: ({ signal }) =>
      api.post('/api/payment-profile/list', { filters: { company: { uuid } }, page, pageSize: PROFILE_PAGE_SIZE }, { signal }),
  });

export const propertyListQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'properties', uuid],
    queryFn: ({ signal }) =>
      api.post('/api/additional-property/list', { filters: { company: { uuid } } }, { signal }),
  });

export const apArQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'ap-ar', uuid],
    queryFn: ({ signal }) => api.post('/api/company/ap-ar', { uuid }, { signal }),
  });

export const instanceDetailQuery = () =>
  queryOptions({ queryKey: [...instanceKey, 'detail'], queryFn: ({ signal }) => api.get('/api/instance/detail', { signal }) });

export const ledgerAccountsQuery = () =>
  queryOptions({
    queryKey: ['accounting', 'account', 'list', ''],
    queryFn: ({ signal }) => api.post('/api/accounting/account/list', {}, { signal }),
  });

export const insertCompany = (data: CompanyInsert) => api.post('/api/company/insert', { data });
export const importCompanies = (csv: string) => api.post('/api/company/import', { data: csv });
export const updateCompany = (uuid: string, data: CompanyUpdate) => api.post('/api/company/update', { id: uuid, data });
export const deleteCompany = (uuid: string) => api.post('/api/company/delete', { id: uuid });
export const insertAddress = (data: CompanyAddress & { company: { uuid: string } }) => api.post('/api/address/insert', { data });
export const updateAddress = (id: number, data: CompanyAddress) => api.post('/api/address/update', { id, data });
export const deleteAddress = (id: number) => api.post('/api/address/delete', { id });
export const insertPaymentProfile = (data: PaymentProfileInsert) => api.post('/api/payment-profile/insert', { data });
export const archivePaymentProfile = (id: number) => api.post('/api/payment-profile/archive', { id });
export const deletePaymentProfile = (id: number) => api.post('/api/payment-profile/delete', { id });
export const insertProperty = (data: AdditionalPropertyInsert) => api.post('/api/additional-property/insert', { data });
export const deleteProperty = (id: number) => api.post('/api/additional-property/delete', { id });
export const updateInstance = (data: InstanceSettings) => api.post('/api/instance/update', { data });
export const searchRegister = (text: string, signal?: AbortSignal) =>
  api.get('/api/company-register/search', { query: { s: text }, signal });
export const registerDetail = (text: string, ehraid: number) =>
  api.get('/api/company-register/detail', { query: { s: text, ehraid } });

export type Contact = ApiResult<'post', '/api/company/contact/list'>['data'][number];
export type ContactInput = ApiBody<'/api/company/contact/insert'>;

/** Contact people of a company (issue 15 §1): invoice e-mail, language, payment terms. */
export { companyContactsQuery as contactListQuery } from '../../lib/document-language';
export const insertContact = (data: ContactInput) => api.post('/api/company/contact/insert', data);
export const updateContact = (id: number, data: Omit<ContactInput, 'company'>) => api.post('/api/company/contact/update', { id, data });
export const deleteContact = (id: number) => api.post('/api/company/contact/delete', { id });

/** The letterhead printed on documents (issue 15 §6): contact block and optional logo. */
export const letterheadQuery = () => queryOptions({ queryKey: [...instanceKey, 'letterhead'], queryFn: ({ signal }) => api.get('/api/instance/letterhead', { signal }) });
export type Letterhead = ApiResult<'get', '/api/instance/letterhead'>;
export const updateLetterhead = (data: ApiBody<'/api/instance/letterhead/update'>['data']) => api.post('/api/instance/letterhead/update', { data });
