/**
 * Issue 16 §5 (decision 025): the sign-up checkbox links to the installation's Terms and Conditions,
 * and /password says where the password lives instead of 'not available yet'.
 */
import { expect, test } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

test('the terms open from the sign-up checkbox, and /password points to the providers and to passkeys', async ({ page, context }) => {
  await page.goto('/login/signup');
  await page.getByLabel('Workplace name').fill(`Terms ${Date.now()}`);
  await page.getByRole('button', { name: 'Next' }).click();
  const [terms] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Terms and Conditions' }).click()]);
  await expect(terms.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
  await expect(terms.getByRole('heading', { name: '2. Sign-in and accounts' })).toBeVisible();
  await expect(terms.getByText(/Last changed \d{2}\.\d{2}\.\d{4}/)).toBeVisible();
  await snap(terms, 'terms');
  await terms.close();
  // Following the link did not tick the box: agreeing stays the person's own act.
  await expect(page.getByLabel('I read and agree to the Terms and Conditions')).not.toBeChecked();

  await signUpAndOnboard(page, { name: `Password ${Date.now()}`, currency: 'CHF' });
  await page.goto('/password');
  await expect(page.getByRole('heading', { name: 'Bilan keeps no password' })).toBeVisible();
  await expect(page.getByText('not available yet')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Google account security/ })).toHaveAttribute('href', 'https://myaccount.google.com/security');
  await snap(page, 'password');
  await page.getByRole('link', { name: 'Passkeys and two-factor in your profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
});
