/// <reference lib="dom" />
/**
 * Issue #3 §4, §5: the superadmin Logs page shows the sign-in audit with IP and user agent; the
 * profile's Mail Sync section says 'No mail sync' while there is none (spec §2.6). The person
 * signs in as platform support through BILAN_DEV_SUPERADMINS (playwright.config.ts).
 */
import { expect, test } from '@playwright/test';
import { snap } from './support';
import { signUp } from './identity-support';

test('platform support sees sign-ins with IP and user agent on the Logs page', async ({ page }) => {
  await signUp(page, `Support Desk ${Date.now().toString(36)}`, 'support.e2e@example.ch', 'Sue Port');
  await page.goto('/profile');
  await expect(page.getByRole('region', { name: 'Mail Sync' }).getByText('No mail sync')).toBeVisible();
  const links = page.getByRole('region', { name: 'Superadmin' });
  await expect(links.getByRole('link', { name: 'Analytics' })).toBeVisible();
  await snap(page, 'identity-13-profile-superadmin-mail-sync');

  await links.getByRole('link', { name: 'Logs' }).click();
  await page.waitForURL('**/superadmin/logs');
  const audit = page.getByRole('table', { name: 'Sign-in audit' });
  await expect(audit.getByRole('columnheader', { name: 'User agent' })).toBeVisible();
  const agent = await page.evaluate(() => navigator.userAgent);
  // Other specs sign up beside this one (playwright.config.ts): this person's row, not the newest.
  const signup = audit.getByRole('row').filter({ has: page.getByText('signup', { exact: true }) }).filter({ hasText: 'support.e2e@example.ch' }).first();
  await expect(signup).toContainText('support.e2e@example.ch');
  await expect(signup).toContainText(agent);
  await expect(signup).toContainText(/127\.0\.0\.1|::1/);
  await snap(page, 'identity-14-logs-user-agent');
});
