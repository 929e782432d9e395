/**
 * Sign-up and sign-in once the identity provider has vouched for the user: find or create the
 * user, create the instance at sign-up (the user becomes its owner), check membership at sign-in,
 * and start a session — all in one transaction.
 */
import type { Tx } from '../../db/database.js';
import { authError } from './auth.errors.js';
import { createInstance, findInstanceByName, instanceNames } from '../instances/instances.service.js';
import { recordAudit } from '../audit/audit.service.js';
import { acceptInvitations, addMember, memberRole } from '../identity/invitations.service.js';
import { ensureUser, grantSuperadmin, userAccount } from '../identity/users.service.js';
import { blockedError, hasTwoFactor, startSecondFactor, type SecondFactorRequired } from '../identity/two-factor.service.js';
import type { ClientMeta, IssuedSession, SessionService } from '../identity/session.service.js';
import type { SsoIdentity, SsoLogin } from './sso.service.js';

export const INSTANCE_NAME_TAKEN = 'Instance name already taken';

export interface SignedIn {
  session: IssuedSession;
  user: { uuid: string; email: string };
  instance: { uuid: string; name: string };
}

/**
 * Finds the user of an identity (provider, subject) — the only way in for an identity whose e-mail
 * the provider did not verify. A verified e-mail may link a new identity to the user with that
 * address, or create the user. Answers undefined for an unverified e-mail of an identity not yet
 * linked: linking it would hand an existing account (or an open invitation) to whoever typed the
 * address at a lax provider (ASVS 5 V10.5.5).
 */
async function upsertUser(tx: Tx, provider: string, identity: SsoIdentity): Promise<string | undefined> {
  const [linked] = await tx.query<{ user_id: string }>(
    'UPDATE user_identity SET last_login_at = now(), email = $3 WHERE provider = $1 AND subject = $2 RETURNING user_id',
    [provider, identity.subject, identity.email],
  );
  if (linked) return linked.user_id;
  if (!identity.emailVerified) return undefined;
  const userId = await ensureUser(tx, { email: identity.email, firstName: identity.firstName, lastName: identity.lastName });
  await tx.query('INSERT INTO user_identity (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)', [provider, identity.subject, userId, identity.email]);
  return userId;
}

/**
 * Signs a user in (or up) after the provider vouched for them. `devSuperadmins` (non-production
 * only, Config.devSuperadmins) lists e-mails made superadmin here. Throws AppError 401/403 'Could
 * not log you in' (reason in `extra`), 409 'Instance name already taken', or the block of spec §8.
 */
export async function signIn(
  tx: Tx,
  sessions: SessionService,
  login: SsoLogin,
  identity: SsoIdentity,
  meta: ClientMeta,
  devSuperadmins: readonly string[] = [],
): Promise<SignedIn | SecondFactorRequired> {
  const userId = await upsertUser(tx, login.provider, identity);
  if (!userId) {
    throw authError('sign_in_refused', 'Could not log you in', undefined, {
      reason: 'the provider did not verify the e-mail address and this identity is not linked to a user',
    });
  }
  const account = await userAccount(tx, userId);
  if (account?.blockedAt) throw blockedError();
  // Only an address the provider vouched for accepts invitations; a linked identity with an
  // unverified address signs in to the workplaces its user already belongs to.
  if (identity.emailVerified) await acceptInvitations(tx, userId, identity.email, meta);
  if (devSuperadmins.includes(account!.email)) await grantSuperadmin(tx, userId);
  let instance: { uuid: string; name: string };
  if (login.isSignup) {
    if (await findInstanceByName(tx, login.instance)) throw authError('instance_name_taken', INSTANCE_NAME_TAKEN, { name: INSTANCE_NAME_TAKEN });
    instance = await createInstance(tx, { name: login.instance });
    await addMember(tx, instance.uuid, userId, 'owner');
  } else {
    // The database's spelling of the id, whatever case the sign-in state carried.
    const [found] = (await memberRole(tx, login.instance, userId)) ? await instanceNames(tx, [login.instance]) : [];
    if (!found) throw authError('sign_in_forbidden', 'Could not log you in', undefined, { reason: 'not a member of this workplace' });
    instance = { uuid: found[0], name: found[1] };
  }
  if (await hasTwoFactor(tx, userId)) {
    const payload = await startSecondFactor(tx, userId, instance.uuid, login.provider);
    await recordAudit(tx, {
      event: 'signin.second_factor_required',
      userId,
      instanceId: instance.uuid,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
      detail: { provider: login.provider },
    });
    return { action: '2FA', payload };
  }
  const session = await sessions.start(tx, userId, instance.uuid, meta);
  await recordAudit(tx, {
    event: login.isSignup ? 'signup' : 'signin.success',
    userId,
    instanceId: instance.uuid,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent ?? null,
    detail: { provider: login.provider },
  });
  return { session, user: { uuid: userId, email: identity.email }, instance };
}
