/** Instance initialisation at the end of onboarding (spec §4, §7.1; docs/api.md). */
import type { InstanceInit, InstanceInitAccounts } from '@bilan/domain';
import { untypedApi, withQuery } from '../../lib/api';

export const initInstance = (body: InstanceInit) => untypedApi.post<{ company: { uuid: string } }>('/api/instance/init', body);
export const initAccounts = (body: InstanceInitAccounts) => untypedApi.post<{ accounts: unknown[] }>('/api/instance/init/accounts', body);

/** Swiss commercial register (Zefix) through the server (docs/api.md "company-register"). */
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
export const searchRegister = (text: string, signal?: AbortSignal) =>
  untypedApi.get<{ data: RegisterCompany[]; total: number }>(withQuery('/api/company-register/search', { s: text }), { signal });
export const registerDetail = (text: string, ehraid: number) =>
  untypedApi.get<RegisterCompanyDetail>(withQuery('/api/company-register/detail', { s: text, ehraid }));
export const registerStatus = (signal?: AbortSignal) => untypedApi.get<{ configured: boolean }>('/api/company-register/status', { signal });
