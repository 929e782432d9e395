/** Company, address, payment-profile, additional-property and settings calls (docs/api.md "Companies"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AdditionalPropertyInsert, CompanyAddress, CompanyInsert, CompanyUpdate, InstanceSettings, PaymentProfileInsert } from '@bilan/domain';
import { untypedApi, withQuery } from '../../lib/api';

export interface Address {
  id: number;
  company: { uuid: string };
  street: string;
  houseNumber: string | null;
  zip: string;
  city: string;
  country: { id: number };
}

export interface Company {
  uuid: string;
  name: string;
  uid: string | null;
  address: Omit<Address, 'company'> | null;
  addressCount: number;
  isOwn: boolean;
  dateAdded: string;
}

/** A company of the list, with its open receivable and payable (instance currency). */
export interface CompanyListItem extends Company {
  open?: { receivable: string; payable: string };
}

export interface PaymentProfile {
  id: number;
  company: { uuid: string; name: string };
  account: { id: number; number: string; name: string } | null;
  type: number;
  iban: string | null;
  bic: string | null;
  bankingReferenceNumber: string | null;
  logIsLog: boolean;
  archivable: boolean;
  explorerLink: string | null;
}

export interface AdditionalProperty {
  id: number;
  company: { uuid: string };
  type: number;
  name: string;
  value: string;
}

export interface OpenItem {
  kind: 'receivable' | 'payable';
  document: string;
  uuid: string | null;
  id: number | null;
  reference: string;
  date: string | null;
  dueDate: string | null;
  amount: string;
  currency: string;
  link: string | null;
}

export interface ApAr {
  company: { uuid: string; name: string };
  receivables: OpenItem[];
  payables: OpenItem[];
  totals: { receivable: string; payable: string; net: string };
}

export interface InstanceDetail {
  uuid: string;
  name: string;
  dateAdded: string;
  vatRate: string | null;
  vatNumber: string | null;
  currency: string;
  address: { street: string; houseNumber: string | null; city: string; zip: string; country: { id: number }; company: { uuid: string; name: string } } | null;
  user: { uuid: string };
}

export interface RegisterCompany {
  name: string;
  ehraid: number;
  uid: string | null;
  legalSeat: string | null;
  legalForm: string | null;
  status: string | null;
}
export interface RegisterCompanyDetail extends RegisterCompany {
  address: { street: string | null; houseNumber: string | null; town: string | null; swissZipCode: string | null } | null;
}

export type CompanySortField = 'name' | 'uid' | 'city' | 'dateAdded';
export const COMPANY_PAGE_SIZE = 25;

export const companiesKey = ['companies'] as const;
export const instanceKey = ['instance'] as const;

export const companyListQuery = (text: string, sort: { by: CompanySortField; order: 'asc' | 'desc' }, page: number) =>
  queryOptions({
    queryKey: [...companiesKey, 'list', text, sort, page],
    queryFn: ({ signal }) =>
      untypedApi.post<{ data: CompanyListItem[]; total: number }>('/api/company/list', { filters: { text }, sort, page, pageSize: COMPANY_PAGE_SIZE, openAmounts: true }, { signal }),
    placeholderData: keepPreviousData,
  });

export const companyDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'detail', uuid],
    queryFn: ({ signal }) => untypedApi.post<Company>('/api/company/detail', { id: uuid }, { signal }),
  });

export const addressListQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'addresses', uuid],
    queryFn: ({ signal }) => untypedApi.post<{ data: Address[]; total: number }>('/api/address/list', { filters: { company: { uuid } } }, { signal }),
  });

export const paymentProfileListQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'payment-profiles', uuid],
    queryFn: ({ signal }) =>
      untypedApi.post<{ data: PaymentProfile[]; total: number }>('/api/payment-profile/list', { filters: { company: { uuid } } }, { signal }),
  });

export const propertyListQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'properties', uuid],
    queryFn: ({ signal }) =>
      untypedApi.post<{ data: AdditionalProperty[]; total: number }>('/api/additional-property/list', { filters: { company: { uuid } } }, { signal }),
  });

export const apArQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...companiesKey, 'ap-ar', uuid],
    queryFn: ({ signal }) => untypedApi.post<ApAr>('/api/company/ap-ar', { uuid }, { signal }),
  });

export const instanceDetailQuery = () =>
  queryOptions({ queryKey: [...instanceKey, 'detail'], queryFn: ({ signal }) => untypedApi.get<InstanceDetail>('/api/instance/detail', { signal }) });

export const ledgerAccountsQuery = () =>
  queryOptions({
    queryKey: ['accounting', 'account', 'list', ''],
    queryFn: ({ signal }) => untypedApi.post<{ data: { id: number; number: string; name: string }[] }>('/api/accounting/account/list', {}, { signal }),
  });

export const insertCompany = (data: CompanyInsert) => untypedApi.post<Company>('/api/company/insert', { data });
export const importCompanies = (csv: string) => untypedApi.post<{ created: number; data: Company[] }>('/api/company/import', { data: csv });
export const updateCompany = (uuid: string, data: CompanyUpdate) => untypedApi.post<Company>('/api/company/update', { id: uuid, data });
export const deleteCompany = (uuid: string) => untypedApi.post<{ ok: true }>('/api/company/delete', { id: uuid });
export const insertAddress = (data: CompanyAddress & { company: { uuid: string } }) => untypedApi.post<Address>('/api/address/insert', { data });
export const updateAddress = (id: number, data: CompanyAddress) => untypedApi.post<Address>('/api/address/update', { id, data });
export const deleteAddress = (id: number) => untypedApi.post<{ ok: true }>('/api/address/delete', { id });
export const insertPaymentProfile = (data: PaymentProfileInsert) => untypedApi.post<PaymentProfile>('/api/payment-profile/insert', { data });
export const archivePaymentProfile = (id: number) => untypedApi.post<PaymentProfile>('/api/payment-profile/archive', { id });
export const deletePaymentProfile = (id: number) => untypedApi.post<{ ok: true }>('/api/payment-profile/delete', { id });
export const insertProperty = (data: AdditionalPropertyInsert) => untypedApi.post<AdditionalProperty>('/api/additional-property/insert', { data });
export const deleteProperty = (id: number) => untypedApi.post<{ ok: true }>('/api/additional-property/delete', { id });
export const updateInstance = (data: InstanceSettings) => untypedApi.post<InstanceDetail>('/api/instance/update', { data });
export const searchRegister = (text: string, signal?: AbortSignal) =>
  untypedApi.get<{ data: RegisterCompany[]; total: number }>(withQuery('/api/company-register/search', { s: text }), { signal });
export const registerDetail = (text: string, ehraid: number) =>
  untypedApi.get<RegisterCompanyDetail>(withQuery('/api/company-register/detail', { s: text, ehraid }));
