/** Instance initialisation at the end of onboarding (spec §4, §7.1; docs/api.md). */
import type { InstanceInit, InstanceInitAccounts } from '@bilan/domain';
import { api, type ApiResult } from '../../lib/api';

export const initInstance = (body: InstanceInit) => api.post('/api/instance/init', body);
export const initAccounts = (body: InstanceInitAccounts) => api.post('/api/instance/init/accounts', body);

/** Swiss commercial register (Zefix) through the server (docs/api.md "company-register"). */
export type RegisterCompany = ApiResult<'get', '/api/company-register/search'>['data'][number];
export type RegisterCompanyDetail = ApiResult<'get', '/api/company-register/detail'>;
export const searchRegister = (text: string, signal?: AbortSignal) =>
  api.get('/api/company-register/search', { query: { s: text }, signal });
export const registerDetail = (text: string, ehraid: number) =>
  api.get('/api/company-register/detail', { query: { s: text, ehraid } });
export const registerStatus = (signal?: AbortSignal) => api.get('/api/company-register/status', { signal });
