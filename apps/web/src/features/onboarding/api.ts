/** Instance initialisation at the end of onboarding (spec §4, §7.1; docs/api.md). */
import type { InstanceInit, InstanceInitAccounts } from '@bilan/domain';
import { api } from '../../lib/api';

export const initInstance = (body: InstanceInit) => api.post<{ company: { uuid: string } }>('/api/instance/init', body);
export const initAccounts = (body: InstanceInitAccounts) => api.post<{ accounts: unknown[] }>('/api/instance/init/accounts', body);
