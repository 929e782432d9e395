/** Profile, staff and superadmin calls (spec §7.2, docs/api.md "Identity"). */
import { untypedApi, withQuery } from '../../lib/api';
import type { Profile } from '../../lib/session';

export type RoleName = 'owner' | 'admin' | 'accountant' | 'viewer';
export const roleNames: RoleName[] = ['owner', 'admin', 'accountant', 'viewer'];
export const roleLabels: Record<RoleName, string> = {
  owner: 'Owner',
  admin: 'Admin',
  accountant: 'Accountant',
  viewer: 'Viewer',
};

export interface InstanceRow {
  uuid: string;
  name: string;
  role: RoleName;
}

export interface MailSyncRow {
  id: number;
  email: string;
  provider: string;
  createdAt: string;
  lastSyncedAt: string | null;
}

export interface SessionRow {
  id: string;
  instance: { uuid: string; name: string };
  startedAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

export interface Member {
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: RoleName;
  current: boolean;
}

export interface Invitation {
  id: number;
  email: string;
  role: RoleName;
  createdAt: string;
}

export interface AuditRow {
  id: string;
  occurredAt: string;
  event: string;
  user: { uuid: string; email: string } | null;
  instance: { uuid: string; name: string } | null;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown>;
}

export interface ActionLogRow {
  createdAt: string;
  url: string;
  user: { uuid: string; email: string } | null;
  instance: { uuid: string; name: string };
}

export interface PlatformAnalytics {
  users: number;
  instances: number;
  liveSessions: number;
  twoFactorUsers: number;
  passkeyUsers: number;
  blockedUsers: { uuid: string; email: string; blockedAt: string }[];
  signIns30d: number;
  failedSignIns30d: number;
}

export const identityApi = {
  twoFactorStatus: () => untypedApi.get<{ status: boolean }>('/napi/profile/2fa'),
  twoFactorUrl: () => untypedApi.get<{ url: string }>('/napi/profile/2fa/url'),
  twoFactorSet: (secretUrl: string, code: string) => untypedApi.post<{ verified: true }>('/napi/profile/2fa/set', { secretUrl, code }),
  twoFactorUnset: (code: string) => untypedApi.post<{ verified: true }>('/napi/profile/2fa/unset', { code }),

  sessions: () => untypedApi.get<{ data: SessionRow[] }>('/napi/profile/sessions'),
  revokeSession: (id: string) => untypedApi.post<{ ok: true }>('/napi/profile/sessions/revoke', { id }),
  revokeAllSessions: () => untypedApi.post<{ revoked: number }>('/napi/profile/sessions/revoke-all', {}),

  instances: () => untypedApi.get<{ data: InstanceRow[] }>('/napi/profile/instance/list'),
  changeInstance: (uuid: string) =>
    untypedApi.post<{ token: string; profile: Profile | null; permissions: string[]; locale: string }>('/napi/profile/instance/change', { uuid }),
  updateProfile: (firstName: string, lastName: string) =>
    untypedApi.post<{ firstName: string; lastName: string }>('/napi/profile/update', { firstName, lastName }),

  mailSync: () => untypedApi.get<{ data: MailSyncRow[] }>('/api/profile/mail-sync'),

  members: () => untypedApi.get<{ data: Member[]; invitations: Invitation[] }>('/api/instance/member/list'),
  invite: (email: string, role: RoleName) => untypedApi.post<Invitation>('/api/instance/member/invite', { email, role }),
  withdrawInvitation: (id: number) => untypedApi.post<{ ok: true }>('/api/instance/member/invitation/delete', { id }),
  changeRole: (uuid: string, role: RoleName) => untypedApi.post<{ uuid: string; role: RoleName }>('/api/instance/member/role', { uuid, role }),
  removeMember: (uuid: string) => untypedApi.post<{ ok: true }>('/api/instance/member/remove', { uuid }),

  auditLog: (page: number, event?: string) =>
    untypedApi.get<{ data: AuditRow[]; total: number }>(withQuery('/napi/admin/audit/list', { page, pageSize: 50, event })),
  actionLog: (page: number) => untypedApi.get<{ data: ActionLogRow[]; total: number }>(withQuery('/napi/admin/action-log/list', { page, pageSize: 50 })),
  analytics: () => untypedApi.get<PlatformAnalytics>('/napi/admin/analytics'),
  unblock: (uuid: string) => untypedApi.post<{ ok: true }>('/napi/admin/user/unblock', { uuid }),
};
