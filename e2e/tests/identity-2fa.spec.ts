/// <reference lib="dom" />
/**
 * Issue #3 §1: enabling two-factor on the profile, signing in with a code, and the block after
 * more than 5 wrong codes (spec §2.6, §2.8, §4, §8).
 */
import { expect, test } from '@playwright/test';
import { snap } from './support';
import { signIn, signUp, totpNow } from './identity-support';

const BLOCKED =
  'Due to multiple login attempts, your account has been temporarily blocked for security reasons. Please contact our support team for assistance in restoring access. Thank you for your cooperation.';

test('enable 2FA on the profile, sign in with a code, then get blocked after 5 wrong codes', async ({ page }) => {
  // The built app passes its own Content-Security-Policy: no violation on any page of this walk.
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect)/i.test(message.text())) violations.push(message.text());
  });
  const workplace = `Zwei Faktor ${Date.now().toString(36)}`;
  const email = `zwei.${Date.now().toString(36)}@example.ch`;
  await signUp(page, workplace, email, 'Zora Zwei');

  await page.goto('/profile');
  // Not a superadmin: no Superadmin links (spec §2.6).
  await expect(page.getByRole('heading', { name: 'Mail Sync' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Superadmin' })).toHaveCount(0);
  const section = page.getByRole('region', { name: 'Two-Factor Authentication' });
  await expect(section.getByText('2FA is not set')).toBeVisible();
  await section.getByRole('button', { name: 'set 2FA' }).click();
  const qr = section.getByRole('img', { name: 'QR code of the two-factor secret' });
  await expect(qr).toBeVisible();
  const size = await qr.evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(size).toBe(256);
  const secret = (await section.getByTestId('totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await snap(page, 'identity-01-2fa-setup');

  // Letters are not accepted by the numeric field: nothing is typed, no call is made.
  await section.getByLabel('Authentication code').pressSequentially('abc');
  await expect(section.getByLabel('Authentication code')).toHaveValue('');
  await section.getByLabel('Authentication code').fill(totpNow(secret));
  await section.getByRole('button', { name: 'Verify' }).click();
  await expect(section.getByText('2FA is set')).toBeVisible();
  await snap(page, 'identity-02-2fa-set');

  // Sign out, sign in again: the provider step leads to /login/2fa/{payload}.
  await page.goto('/logout');
  await page.waitForURL('**/login/**');
  await signIn(page, workplace, email, 'Zora Zwei');
  await page.waitForURL('**/login/2fa/**');
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await snap(page, 'identity-03-2fa-login');
  // The code that set 2FA is used already; the next step's code is within the ±1 step window.
  await page.getByLabel('Authentication code').fill(totpNow(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // Wrong codes: the server's text and ' Attempt n/5'; the sixth wrong code blocks the account.
  await page.goto('/logout');
  await page.waitForURL('**/login/**');
  await signIn(page, workplace, email, 'Zora Zwei');
  await page.waitForURL('**/login/2fa/**');
  const right = new Set([totpNow(secret, -1), totpNow(secret), totpNow(secret, 1)]);
  const wrong = ['111111', '222222', '333333', '444444'].find((code) => !right.has(code))!;
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await page.getByLabel('Authentication code').fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText(`Invalid two-factor code. Attempt ${attempt}/5`)).toBeVisible();
  }
  await snap(page, 'identity-04-2fa-attempt-5');
  await page.getByLabel('Authentication code').fill(wrong);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(BLOCKED)).toBeVisible();
  await snap(page, 'identity-05-2fa-blocked');

  // Still blocked at the next sign-in, whatever the provider says.
  await signIn(page, workplace, email, 'Zora Zwei');
  await expect(page.getByText(/Could not log you in|temporarily blocked/).first()).toBeVisible();
  expect(violations).toEqual([]);
});
