/// <reference lib="dom" />
/**
 * Issue #3 §3, §4: idle sign-out in two tabs, switching instance, a viewer who cannot post.
 */
import { expect, test } from '@playwright/test';
import { snap } from './support';
import { signIn, signUp } from './identity-support';

const IDLE = 'Inactivity exceeded 30min; you were automatically signed out';
const stamp = () => Date.now().toString(36);

test('idle sign-out happens in every open tab at once and stores the message', async ({ context, page }) => {
  const email = `idle.${stamp()}@example.ch`;
  await signUp(page, `Idle ${stamp()}`, email, 'Ida Idle');
  // Test hook: a short idle time-out, honoured because the test server is not a production server.
  // 10 s rather than seconds fewer: opening the second tab on a loaded CI machine must not outlast it.
  await page.evaluate(() => localStorage.setItem('idle_timeout_ms', '10000'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // A page load is not activity (the clock runs from the browser's last input): move now.
  await page.mouse.move(50, 200);
  const second = await context.newPage();
  await second.goto('/accounting/journal');
  await expect(second.getByRole('heading', { name: 'Journal' })).toBeVisible();
  await second.mouse.move(60, 200);

  // Activity in one tab keeps both alive well past the time-out.
  for (let i = 0; i < 6; i += 1) {
    await page.waitForTimeout(2500);
    await second.mouse.move(100 + i * 10, 200);
  }
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(second).toHaveURL(/\/accounting\/journal/);

  // Then nothing: both tabs go to /login.
  await Promise.all([page.waitForURL('**/login', { timeout: 30_000 }), second.waitForURL('**/login', { timeout: 30_000 })]);
  // Each tab stored the message and shows it on its login page.
  await expect.poll(async () => (await page.getByText(IDLE).count()) + (await second.getByText(IDLE).count())).toBeGreaterThanOrEqual(1);
  await snap((await page.getByText(IDLE).count()) ? page : second, 'identity-06-idle-signed-out');
  // The server session ended too: a reload stays signed out.
  await second.goto('/');
  await second.waitForURL('**/login');
});

test('a user of two workplaces switches instance on the profile; the other open tab follows', async ({ context, page }) => {
  const email = `two.${stamp()}@example.ch`;
  const first = `Beta Werkstatt ${stamp()}`;
  const second = `Alpha Atelier ${stamp()}`;
  await signUp(page, first, email, 'Tom Two');
  await page.goto('/logout');
  await page.waitForURL('**/login/**');
  await signUp(page, second, email, 'Tom Two');
  await expect(page.getByRole('button', { name: new RegExp(second) })).toBeVisible();

  // A second tab of the same browser, working in the current workplace.
  const other = await context.newPage();
  await other.goto('/accounting/journal');
  await expect(other.getByRole('heading', { name: 'Journal' })).toBeVisible();
  await expect(other.getByRole('button', { name: new RegExp(second) })).toBeVisible();

  await page.goto('/profile');
  const instance = page.getByRole('region', { name: 'Instance' });
  await expect(instance.getByText(second, { exact: true })).toBeVisible();
  await instance.getByRole('button', { name: 'CHANGE INSTANCE' }).click();
  await instance.getByRole('combobox', { name: 'Instance' }).click();
  const options = page.getByRole('option');
  await expect(options).toHaveCount(2);
  // Sorted by name: Alpha before Beta.
  await expect(options.nth(0)).toContainText(second);
  await expect(options.nth(1)).toContainText(first);
  await snap(page, 'identity-07-change-instance');
  await options.nth(1).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('button', { name: new RegExp(first) })).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('profile') ?? 'null')?.instance?.name)).toBe(first);
  expect(await page.evaluate(() => localStorage.getItem('permissions'))).toBe('["read","write","admin"]');
  // The other tab did not keep showing the old workplace: it reloaded into the new one, at home.
  await other.waitForURL((url) => url.pathname === '/');
  await expect(other.getByRole('button', { name: new RegExp(first) })).toBeVisible();
  await expect(other.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await snap(other, 'identity-12-other-tab-followed-switch');
  // A reload keeps the new instance (the refresh cookie moved with the session).
  await page.reload();
  await expect(page.getByRole('button', { name: new RegExp(first) })).toBeVisible();
  await other.close();
});

test('a viewer invited by e-mail reads the books but cannot post', async ({ page, browser }) => {
  const owner = `owner.${stamp()}@example.ch`;
  const viewer = `viewer.${stamp()}@example.ch`;
  const workplace = `Viewer Test ${stamp()}`;
  await signUp(page, workplace, owner, 'Olga Owner');
  await page.goto('/staff');
  await page.getByLabel('E-mail').fill(viewer);
  await page.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Viewer' }).click();
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('cell', { name: viewer })).toBeVisible();
  await snap(page, 'identity-08-staff-invited');

  // The viewer signs in (another browser) with that e-mail: the invitation is accepted.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, workplace, viewer, 'Vera Viewer');
  await other.waitForURL((url) => url.pathname === '/');
  await other.goto('/accounting/journal');
  await expect(other.getByRole('heading', { name: 'Journal' })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Add Journal Entry' }).and(other.locator('main a'))).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await other.goto('/accounting/account');
  await expect(other.getByRole('heading', { name: 'Ledger Accounts' })).toBeVisible();
  await expect(other.getByRole('button', { name: 'New account' })).toHaveCount(0);
  await other.goto('/accounting/entry/add');
  await expect(other.getByText('Your role (viewer) may only read in this workplace.')).toBeVisible();
  await snap(other, 'identity-09-viewer-add-entry');

  // The server refuses the post as well, with a clear message.
  const answer = await other.evaluate(async () => {
    const { token } = (await (await fetch('/napi/auth/refresh')).json()) as { token: string };
    const accounts = (await (
      await fetch('/api/accounting/account/list', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })
    ).json()) as { data: { id: number }[] };
    const response = await fetch('/api/accounting/entry/insert', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        data: {
          dateLedger: '2026-01-15',
          description: 'Not allowed',
          entryAccounts: [
            { account: { id: accounts.data[0]!.id }, amount: '10.00', direction: 'debit' },
            { account: { id: accounts.data[1]!.id }, amount: '10.00', direction: 'credit' },
          ],
        },
      }),
    });
    return { status: response.status, body: (await response.json()) as { error: string } };
  });
  expect(answer.status).toBe(403);
  expect(answer.body.error).toBe('Your role (viewer) may only read in this workplace');
  await context.close();

  // The owner sees the viewer as a member now.
  await page.reload();
  await expect(page.getByRole('combobox', { name: `Role of ${viewer}` })).toHaveValue('Viewer');
});
