/**
 * The signed-in user's profile and their workplaces (spec §3 Profile, §7.2 "GET /profile",
 * "GET /profile/instance/list"): users and memberships are identity's tables, the instance's name,
 * currency and onboarding state the instances module's (issue 11 §3: each asked of its owner).
 */
import type { CurrencyCode, NumberFormat, RoleName, UiLanguage } from '@bilan/domain';
import type { Database } from '../../db/database.js';
import { instanceError, instancesByName, instanceSummary, ONBOARDING_NOT_FINISHED, permissionsOf, type Permission } from '../instances/instances.service.js';

export interface Profile {
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  role: RoleName;
  isSuperadmin: boolean;
  permissions: Permission[];
  instance: { uuid: string; name: string; currency: CurrencyCode; initialized: boolean };
  /** The user's UI language and number format (issue 17 §3); null when not chosen yet. */
  language: UiLanguage | null;
  numberFormat: NumberFormat | null;
}

/**
 * The signed-in user's profile in their current instance. 401 `not_a_member` once the user left
 * it; 409 `onboarding_not_finished` (with `onboarding: true`) before onboarding has finished.
 */
export async function loadProfile(db: Database, instanceId: string, userId: string): Promise<Profile> {
  const found = await db.withInstance(instanceId, async (tx) => {
    const [member] = await tx.query<{
      email: string; first_name: string; last_name: string; is_superadmin: boolean; role: RoleName; language: UiLanguage | null; number_format: NumberFormat | null;
    }>(
      `SELECT u.email, u.first_name, u.last_name, u.is_superadmin, m.role, u.language, u.number_format
         FROM instance_member m JOIN app_user u ON u.id = m.user_id
        WHERE m.instance_id = $1 AND m.user_id = $2`,
      [instanceId, userId],
    );
    return member && { member, instance: await instanceSummary(tx, instanceId) };
  });
  if (!found?.instance) throw instanceError('not_a_member', 'You are no longer a member of this workplace');
  const { member, instance } = found;
  if (!instance.initialized) throw instanceError('onboarding_not_finished', ONBOARDING_NOT_FINISHED, undefined, { onboarding: true });
  return {
    uuid: userId,
    email: member.email,
    firstName: member.first_name,
    lastName: member.last_name,
    role: member.role,
    isSuperadmin: member.is_superadmin,
    permissions: permissionsOf(member.role),
    instance: { uuid: instanceId, name: instance.name, currency: instance.currency, initialized: true },
    language: member.language,
    numberFormat: member.number_format,
  };
}

/** The instances a user belongs to, with their role, sorted by name (spec §2.6 "CHANGE INSTANCE … sorted by name"). */
export async function listUserInstances(db: Database, userId: string): Promise<{ uuid: string; name: string; role: RoleName }[]> {
  return db.withAuth(async (tx) => {
    const memberships = await tx.query<{ instance_id: string; role: RoleName }>('SELECT instance_id, role FROM instance_member WHERE user_id = $1', [userId]);
    const roles = new Map(memberships.map((m) => [m.instance_id, m.role]));
    return (await instancesByName(tx, [...roles.keys()])).map((instance) => ({ ...instance, role: roles.get(instance.uuid)! }));
  });
}

/** The user's chosen UI language, or null (the same in every workplace). */
export async function userLanguage(db: Database, userId: string): Promise<UiLanguage | null> {
  const [row] = await db.withAuth((tx) => tx.query<{ language: UiLanguage | null }>('SELECT language FROM app_user WHERE id = $1', [userId]));
  return row?.language ?? null;
}
