/** Profile, staff and superadmin calls (spec §7.2, docs/api.md "Identity"). */
import { api, type ApiResult } from '../../lib/api';
import type { NumberFormat, UiLanguage } from '@bilan/domain';
import { msg } from '../../lib/i18n';

export type RoleName = 'owner' | 'admin' | 'accountant' | 'viewer';
export const roleNames: RoleName[] = ['owner', 'admin', 'accountant', 'viewer'];
/** English texts, shown through t(). */
export const roleLabels: Record<RoleName, string> = {
  owner: msg('Owner'),
  admin: msg('Admin'),
  accountant: msg('Accountant'),
  viewer: msg('Viewer'),
};

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type InstanceRow = ApiResult<'get', '/napi/profile/instance/list'>['data'][number];
export type MailSyncRow = ApiResult<'get', '/api/profile/mail-sync'>['data'][number];
export type SessionRow = ApiResult<'get', '/napi/profile/sessions'>['data'][number];
type Members = ApiResult<'get', '/api/instance/member/list'>;
export type Member = Members['data'][number];
export type Invitation = Members['invitations'][number];
export type AuditRow = ApiResult<'get', '/napi/admin/audit/list'>['data'][number];
export type ActionLogRow = ApiResult<'get', '/napi/admin/action-log/list'>['data'][number];
export type PlatformAnalytics = ApiResult<'get', '/napi/admin/analytics'>;

export const identityApi = {
  twoFactorStatus: () => api.get('/napi/profile/2fa'),
  twoFactorUrl: () => api.get('/napi/profile/2fa/url'),
  twoFactorSet: (secretUrl: string, code: string) => api.post('/napi/profile/2fa/set', { secretUrl, code }),
  twoFactorUnset: (code: string) => api.post('/napi/profile/2fa/unset', { code }),

  sessions: () => api.get('/napi/profile/sessions'),
  revokeSession: (id: string) => api.post('/napi/profile/sessions/revoke', { id }),
  revokeAllSessions: () => api.post('/napi/profile/sessions/revoke-all', {}),

  instances: () => api.get('/napi/profile/instance/list'),
  changeInstance: (uuid: string) =>
    api.post('/napi/profile/instance/change', { uuid }),
  updateProfile: (firstName: string, lastName: string) =>
    api.post('/napi/profile/update', { firstName, lastName }),

  /** The user's language and number format (issue 17 §3); null clears a choice. */
  updatePreferences: (language: UiLanguage | null, numberFormat: NumberFormat | null) =>
    api.post('/napi/profile/preferences', { language, numberFormat }),

  mailSync: () => api.get('/api/profile/mail-sync'),

  members: () => api.get('/api/instance/member/list'),
  invite: (email: string, role: RoleName) => api.post('/api/instance/member/invite', { email, role }),
  withdrawInvitation: (id: number) => api.post('/api/instance/member/invitation/delete', { id }),
  changeRole: (uuid: string, role: RoleName) => api.post('/api/instance/member/role', { uuid, role }),
  removeMember: (uuid: string) => api.post('/api/instance/member/remove', { uuid }),

  auditLog: (page: number, event?: string) =>
    api.get('/napi/admin/audit/list', { query: { page, pageSize: 50, ...(event ? { event } : {}) } }),
  actionLog: (page: number) => api.get('/napi/admin/action-log/list', { query: { page, pageSize: 50 } }),
  analytics: () => api.get('/napi/admin/analytics'),
  unblock: (uuid: string) => api.post('/napi/admin/user/unblock', { uuid }),
};
