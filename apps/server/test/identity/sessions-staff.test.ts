/**
 * Sessions, several instances per user, staff and roles, superadmin pages (issue #3 §3, §4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { browse, signInThroughLocalIdp } from '../sso-flow.js';

let server: TestServer;
let anonymous: Client;

beforeAll(async () => {
  server = await startTestServer();
  anonymous = new Client(server.baseUrl);
});
afterAll(async () => server?.close());

/** Adds an existing user to another workplace with a role (as an accepted invitation would). */
async function addMember(workplace: Workplace, userId: string, role: string) {
  await server.db.withAuth((tx) => tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [workplace.instanceId, userId, role]));
}

const entry = (accountId: number) => ({
  data: {
    dateLedger: '2026-01-15',
    description: 'Test',
    entryAccounts: [
      { account: { id: accountId }, amount: '10.00', direction: 'debit' },
      { account: { id: accountId }, amount: '10.00', direction: 'credit' },
    ],
  },
});

describe('sessions', () => {
  it('lists live sessions, signs one out and signs out everywhere; tokens stop at once', async () => {
    const workplace = await createWorkplace(server);
    const first = await signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'A B' });
    const second = await signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'A B', provider: 'microsoft' });
    const api1 = new Client(server.baseUrl, first.body.token);
    const api2 = new Client(server.baseUrl, second.body.token);
    const list = await api1.get('/napi/profile/sessions');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBe(3);
    expect(list.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ instance: { uuid: workplace.instanceId }, ip: expect.any(String) });

    const secondId = list.body.data.find((s: { current: boolean }) => !s.current).id as string;
    expect((await api1.post('/napi/profile/sessions/revoke', { id: 'not-a-uuid' })).body.fields.id).toBe('uuid invalid');
    expect((await api1.post('/napi/profile/sessions/revoke', { id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await api1.post('/napi/profile/sessions/revoke', { id: secondId })).status).toBe(200);
    expect((await api1.get('/napi/profile/sessions')).body.data.length).toBe(2);

    // Another user cannot end my sessions: 404, nothing changes.
    const other = await createWorkplace(server);
    const mine = (await api1.get('/napi/profile/sessions')).body.data[0].id;
    expect((await other.api.post('/napi/profile/sessions/revoke', { id: mine })).status).toBe(404);

    const all = await api1.post('/napi/profile/sessions/revoke-all', {});
    expect(all.status).toBe(200);
    expect(all.body.revoked).toBe(2);
    expect((await api1.get('/napi/profile')).status).toBe(401);
    expect((await api2.get('/napi/profile')).status).toBe(401);
    expect((await workplace.api.get('/napi/profile')).status).toBe(401);
    expect((await browse(first.jar, `${server.baseUrl}/napi/auth/refresh`)).status).toBe(401);
    expect((await browse(second.jar, `${server.baseUrl}/napi/auth/refresh`)).status).toBe(401);
  });

  it('refuses an access token after logout (the server enforces the end, not only the browser)', async () => {
    const workplace = await createWorkplace(server);
    const login = await signInThroughLocalIdp(server.baseUrl, { instance: workplace.instanceId, email: workplace.email, name: 'A B' });
    const api = new Client(server.baseUrl, login.body.token);
    expect((await api.get('/napi/profile')).status).toBe(200);
    await browse(login.jar, `${server.baseUrl}/napi/auth/logout`);
    expect((await api.get('/napi/profile')).status).toBe(401);
  });

  it('answers the session constants', async () => {
    const settings = await anonymous.get('/napi/auth/settings');
    expect(settings.body).toEqual({ idleTimeoutMs: 1_800_000, refreshIntervalMs: 480_000, testOverrides: true });
  });
});

describe('several instances per user', () => {
  it('lists the instances by name and switches, keeping the session family', async () => {
    const zulu = await createWorkplace(server, { name: `Zulu ${Date.now()}` });
    const alpha = await createWorkplace(server, { name: `Alpha ${Date.now()}` });
    await addMember(alpha, zulu.userId, 'viewer');
    const login = await signInThroughLocalIdp(server.baseUrl, { instance: zulu.instanceId, email: zulu.email, name: 'Z U' });
    const api = new Client(server.baseUrl, login.body.token);
    for (const path of ['/api/instance/list', '/napi/profile/instance/list']) {
      const list = await api.get(path);
      expect(list.body.data.map((row: { uuid: string }) => row.uuid)).toEqual([alpha.instanceId, zulu.instanceId]);
      expect(list.body.data[0].role).toBe('viewer');
    }
    const change = await api.post('/napi/profile/instance/change', { uuid: alpha.instanceId });
    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ permissions: ['read'], locale: 'en', profile: { role: 'viewer', instance: { uuid: alpha.instanceId } } });
    const switched = new Client(server.baseUrl, change.body.token);
    expect((await switched.get('/napi/profile')).body.instance.uuid).toBe(alpha.instanceId);
    // The access token of the old instance stops at once: the session now lives in the new one
    // (the user is still a member of the old instance, so only the session's instance can refuse it).
    const stale = await api.get('/napi/profile');
    expect(stale.status).toBe(401);
    expect(stale.body.error).toBe('Session expired or invalid');
    expect((await api.post('/api/accounting/account/list', {})).status).toBe(401);
    // The refresh cookie now refreshes into the new instance, and says so.
    const refreshed = await browse(login.jar, `${server.baseUrl}/napi/auth/refresh`);
    const { token, instance } = (await refreshed.json()) as { token: string; instance: { uuid: string } };
    expect(instance.uuid).toBe(alpha.instanceId);
    const current = new Client(server.baseUrl, token);
    expect((await current.get('/napi/profile')).body.instance.uuid).toBe(alpha.instanceId);

    const stranger = await createWorkplace(server);
    expect((await current.post('/napi/profile/instance/change', { uuid: stranger.instanceId })).status).toBe(404);
    expect((await current.post('/napi/profile/instance/change', { uuid: 'x' })).body.fields.uuid).toBe('uuid invalid');
    expect((await current.post('/napi/profile/instance/change', {})).status).toBe(400);
    const events = await server.db.withAuth((tx) => tx.query<{ event: string }>(`SELECT event FROM audit_event WHERE event = 'instance.switched'`));
    expect(events.length).toBeGreaterThan(0);
  });
});

describe('staff and roles', () => {
  let owner: Workplace;
  let accountId: number;

  beforeAll(async () => {
    owner = await createWorkplace(server);
    accountId = (await owner.api.post('/api/accounting/account/list', {})).body.data[0].id;
  });

  it('invites by e-mail; the invitation is accepted at the next sign-in with that e-mail through any provider', async () => {
    const email = `invitee.${Date.now()}@example.ch`;
    const bad = await owner.api.post('/api/instance/member/invite', { email: ' x@example.ch', role: 'viewer' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.email).toBe('email must not contain any whitespace (before or after)');
    expect((await owner.api.post('/api/instance/member/invite', { email: 'nope', role: 'viewer' })).body.fields.email).toBe('email invalid');
    expect((await owner.api.post('/api/instance/member/invite', { email, role: 'boss' })).body.fields.role).toBeTruthy();
    const invite = await owner.api.post('/api/instance/member/invite', { email: email.toUpperCase(), role: 'viewer' });
    expect(invite.status).toBe(200);
    expect(invite.body).toMatchObject({ email, role: 'viewer' });
    expect((await owner.api.post('/api/instance/member/invite', { email, role: 'viewer' })).status).toBe(409);

    const login = await signInThroughLocalIdp(server.baseUrl, { instance: owner.instanceId, email, name: 'In Vitee', provider: 'swissid' });
    expect(login.status).toBe(200);
    const viewer = new Client(server.baseUrl, login.body.token);
    const profile = await viewer.get('/napi/profile');
    expect(profile.body).toMatchObject({ role: 'viewer', permissions: ['read'] });
    const staff = await owner.api.get('/api/instance/member/list');
    expect(staff.body.invitations).toEqual([]);
    expect(staff.body.data.find((m: { email: string }) => m.email === email).role).toBe('viewer');
  });

  it('a viewer reads but cannot post (403 with a clear message), and cannot manage staff', async () => {
    const email = `viewer.${Date.now()}@example.ch`;
    await owner.api.post('/api/instance/member/invite', { email, role: 'viewer' });
    const login = await signInThroughLocalIdp(server.baseUrl, { instance: owner.instanceId, email, name: 'V Iewer' });
    const viewer = new Client(server.baseUrl, login.body.token);
    expect((await viewer.post('/api/accounting/account/list', {})).status).toBe(200);
    const post = await viewer.post('/api/accounting/entry/insert', entry(accountId));
    expect(post.status).toBe(403);
    expect(post.body.error).toBe('Your role (viewer) may only read in this workplace');
    const invite = await viewer.post('/api/instance/member/invite', { email: 'x@example.ch', role: 'viewer' });
    expect(invite.status).toBe(403);
    expect(invite.body.error).toMatch(/owner or admin/);
  });

  it('role changes take effect on the next call, with the rules that keep the instance governable', async () => {
    const email = `accountant.${Date.now()}@example.ch`;
    await owner.api.post('/api/instance/member/invite', { email, role: 'accountant' });
    const login = await signInThroughLocalIdp(server.baseUrl, { instance: owner.instanceId, email, name: 'Acc Ountant' });
    const accountant = new Client(server.baseUrl, login.body.token);
    const me = (await accountant.get('/napi/profile')).body.uuid as string;
    // Allowed by role (the body is then judged on its merits), refused by role after the demotion.
    expect((await accountant.post('/api/accounting/entry/insert', entry(accountId))).status).not.toBe(403);
    const demote = await owner.api.post('/api/instance/member/role', { uuid: me, role: 'viewer' });
    expect(demote.status).toBe(200);
    expect((await accountant.post('/api/accounting/entry/insert', entry(accountId))).status).toBe(403);

    // An admin cannot touch owners; nobody changes their own role; the last owner stays.
    await owner.api.post('/api/instance/member/role', { uuid: me, role: 'admin' });
    const asAdmin = accountant;
    expect((await asAdmin.post('/api/instance/member/role', { uuid: owner.userId, role: 'viewer' })).body).toMatchObject({ code: 'owner_role_reserved' });
    expect((await asAdmin.post('/api/instance/member/role', { uuid: me, role: 'owner' })).body).toMatchObject({ code: 'own_membership' });
    expect((await asAdmin.post('/api/instance/member/invite', { email: 'o@example.ch', role: 'owner' })).status).toBe(403);
    expect((await owner.api.post('/api/instance/member/role', { uuid: owner.userId, role: 'viewer' })).status).toBe(409);
    const unknown = await owner.api.post('/api/instance/member/role', { uuid: '00000000-0000-4000-8000-000000000000', role: 'viewer' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'member_not_found']);

    // Removal: the removed member's token stops working at once.
    expect((await owner.api.post('/api/instance/member/remove', { uuid: me })).status).toBe(200);
    expect((await accountant.get('/napi/profile')).status).toBe(401);
    const events = (await server.db.withAuth((tx) => tx.query<{ event: string }>('SELECT DISTINCT event FROM audit_event'))).map((r) => r.event);
    for (const event of ['member.invited', 'member.joined', 'member.role_changed', 'member.removed']) expect(events, event).toContain(event);
  });

  it('members of another instance are 404, invitations withdrawn once', async () => {
    const other = await createWorkplace(server);
    expect((await other.api.post('/api/instance/member/role', { uuid: owner.userId, role: 'viewer' })).status).toBe(404);
    expect((await other.api.post('/api/instance/member/remove', { uuid: owner.userId })).status).toBe(404);
    const invite = await owner.api.post('/api/instance/member/invite', { email: `w.${Date.now()}@example.ch`, role: 'viewer' });
    expect((await other.api.post('/api/instance/member/invitation/delete', { id: invite.body.id })).status).toBe(404);
    expect((await owner.api.post('/api/instance/member/invitation/delete', { id: invite.body.id })).status).toBe(200);
    expect((await owner.api.post('/api/instance/member/invitation/delete', { id: invite.body.id })).status).toBe(404);
    expect((await owner.api.post('/api/instance/member/invitation/delete', { id: -1 })).body.fields.id).toBeTruthy();
  });
});

describe('superadmin', () => {
  it('only superadmins read the logs and analytics', async () => {
    const user = await createWorkplace(server);
    for (const path of ['/napi/admin/audit/list', '/napi/admin/action-log/list', '/napi/admin/analytics']) {
      const refused = await user.api.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toBe('Only platform support (superadmin) may do this');
    }
    await server.db.asOwner((tx) => tx.query('UPDATE app_user SET is_superadmin = true WHERE id = $1', [user.userId]));
    await user.api.post('/napi/action-log/insert', { url: '/profile' });
    const audit = await user.api.get('/napi/admin/audit/list?page=1&pageSize=5');
    expect(audit.status).toBe(200);
    expect(audit.body.data.length).toBeLessThanOrEqual(5);
    expect(audit.body.total).toBeGreaterThan(0);
    const log = await user.api.get('/napi/admin/action-log/list');
    const view = log.body.data.find((row: { url: string }) => row.url === '/profile');
    // Who and where, resolved from the owners of users and instances.
    expect(view.user).toEqual({ uuid: user.userId, email: user.email });
    expect(view.instance).toEqual({ uuid: user.instanceId, name: expect.stringMatching(/\S/) });
    const analytics = await user.api.get('/napi/admin/analytics');
    expect(analytics.body.users).toBeGreaterThan(0);
    expect(analytics.body.instances).toBeGreaterThan(0);
    expect((await user.api.get('/napi/admin/audit/list?page=0')).body.fields.page).toBeTruthy();
    expect((await user.api.get('/napi/profile')).body.isSuperadmin).toBe(true);
  });
});

describe('profile personal information', () => {
  it('updates first and last name, refusing bad input by field', async () => {
    const workplace = await createWorkplace(server);
    const update = await workplace.api.post('/napi/profile/update', { firstName: ' Anna ', lastName: 'Muster' });
    expect(update.status).toBe(200);
    expect(update.body).toEqual({ firstName: 'Anna', lastName: 'Muster' });
    expect((await workplace.api.get('/napi/profile')).body).toMatchObject({ firstName: 'Anna', lastName: 'Muster' });
    const long = await workplace.api.post('/napi/profile/update', { firstName: 'x'.repeat(101), lastName: 'M' });
    expect(long.status).toBe(400);
    expect(long.body.fields.firstName).toBe('at most 100 characters');
    expect((await workplace.api.post('/napi/profile/update', { firstName: 'A' })).body.fields.lastName).toBe('This field is required');
    expect((await workplace.api.get('/napi/profile')).body.firstName).toBe('Anna');
  });
});

describe('profile language and number format (issue 17 §3)', () => {
  it('starts unchosen, stores a choice for every workplace of the user, answers it as the locale of an instance switch, and refuses others by field', async () => {
    const workplace = await createWorkplace(server);
    const other = await createWorkplace(server);
    await addMember(other, workplace.userId, 'viewer');
    expect((await workplace.api.get('/napi/profile')).body).toMatchObject({ language: null, numberFormat: null });
    const saved = await workplace.api.post('/napi/profile/preferences', { language: 'de', numberFormat: 'de-CH' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toEqual({ language: 'de', numberFormat: 'de-CH' });
    expect((await workplace.api.get('/napi/profile')).body).toMatchObject({ language: 'de', numberFormat: 'de-CH' });
    const switched = await workplace.api.post('/napi/profile/instance/change', { uuid: other.instanceId });
    expect(switched.status).toBe(200);
    expect(switched.body.locale).toBe('de');
    expect(switched.body.profile).toMatchObject({ language: 'de', numberFormat: 'de-CH' });
    const api = new Client(server.baseUrl, switched.body.token);

    const bad = await api.post('/napi/profile/preferences', { language: 'es', numberFormat: 'de-DE' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['language', 'numberFormat']);
    expect((await api.post('/napi/profile/preferences', { language: 'fr' })).body.fields.numberFormat).toBe('This field is required');
    expect((await api.get('/napi/profile')).body).toMatchObject({ language: 'de', numberFormat: 'de-CH' });
    // null clears the choice.
    expect((await api.post('/napi/profile/preferences', { language: null, numberFormat: null })).status).toBe(200);
    expect((await api.get('/napi/profile')).body).toMatchObject({ language: null, numberFormat: null });
  });

  it('keeps one whole choice when the same user saves different ones at once (last write wins, never a mix)', async () => {
    const workplace = await createWorkplace(server);
    const choices = [
      { language: 'de', numberFormat: 'de-CH' },
      { language: 'fr', numberFormat: 'fr-CH' },
      { language: 'it', numberFormat: 'it-CH' },
      { language: 'en', numberFormat: 'en-CH' },
    ] as const;
    const answers = await Promise.all(choices.flatMap((choice) => [choice, choice]).map((choice) => workplace.api.post('/napi/profile/preferences', choice)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    const { language, numberFormat } = (await workplace.api.get('/napi/profile')).body;
    expect(choices).toContainEqual({ language, numberFormat });
  });
});

describe('mail sync on the profile (spec §2.6, §7.1)', () => {
  it("lists the user's own synced mail accounts of this instance, empty until there are some", async () => {
    const workplace = await createWorkplace(server, { onboard: false });
    const other = await createWorkplace(server, { onboard: false });
    expect((await workplace.api.get('/api/profile/mail-sync')).body).toEqual({ data: [] });
    const colleague = await createWorkplace(server, { onboard: false });
    await addMember(workplace, colleague.userId, 'viewer');
    await addMember(other, workplace.userId, 'viewer');
    await server.db.asOwner(async (tx) => {
      const insert = `INSERT INTO mail_account (instance_id, id, user_id, email, host, port, tls, username, password_encrypted, disconnected_at)
        VALUES ($1, $2, $3, $4, 'imap.muster.ch', 993, true, $4, '\\x00', $5)`;
      await tx.query(insert, [workplace.instanceId, 1, workplace.userId, 'invoices@muster.ch', null]);
      await tx.query(insert, [workplace.instanceId, 2, workplace.userId, 'bills@muster.ch', null]);
      // A colleague's account in the same instance, the user's own in another instance and a disconnected one stay out.
      await tx.query(insert, [workplace.instanceId, 3, colleague.userId, 'colleague@muster.ch', null]);
      await tx.query(insert, [other.instanceId, 1, workplace.userId, 'elsewhere@muster.ch', null]);
      await tx.query(insert, [workplace.instanceId, 4, workplace.userId, 'gone@muster.ch', new Date().toISOString()]);
    });
    const list = await workplace.api.get('/api/profile/mail-sync');
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { email: string }) => row.email)).toEqual(['bills@muster.ch', 'invoices@muster.ch']);
    expect(list.body.data[0]).toMatchObject({ id: 2, provider: 'imap', host: 'imap.muster.ch', createdAt: expect.any(String), lastSyncedAt: null, lastError: null });
    expect(list.body.data[0]).not.toHaveProperty('password');
    expect((await new Client(server.baseUrl).get('/api/profile/mail-sync')).status).toBe(401);
  });
});
