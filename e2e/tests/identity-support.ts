/**
 * Helpers of the identity specs: sign-up and sign-in with a chosen e-mail (the shared helper uses
 * one fixed person, and these specs change people's security settings).
 */
import { expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';

/**
 * The built-in OpenID provider after a provider button: its form the first time; later it may
 * remember the person and send the browser straight back.
 */
export async function localIdp(page: Page, email: string, name: string): Promise<void> {
  // '/login' itself: a refused sign-in (e.g. blocked by two-factor attempts) passes /sso/ too fast to be seen and ends there.
  await page.waitForURL(
    (url) => /\/interaction\/|\/sso\/|\/login\/2fa\//.test(url.pathname) || ['/', '/onboarding', '/login'].includes(url.pathname),
  );
  if (!page.url().includes('/interaction/')) return;
  await page.locator('#email').fill(email);
  await page.locator('#name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Signs up a new workplace as `email` and finishes onboarding the short way; ends on the dashboard. */
export async function signUp(page: Page, workplace: string, email: string, name = 'Test Person'): Promise<void> {
  await page.goto('/login/signup');
  await page.getByLabel('Workplace name').fill(workplace);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('I read and agree to the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await localIdp(page, email, name);
  await page.waitForURL('**/onboarding');
  await page.getByRole('button', { name: 'We are not a registered Swiss company' }).click();
  await page.getByLabel('Company name').fill(`${workplace} AG`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Street').fill('Bahnhofstrasse');
  await page.getByLabel('ZIP').fill('8001');
  await page.getByLabel('City').fill('Zürich');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('IBAN').fill('CH93 0076 2011 6238 5295 7');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
}

/** From the workplace-name form to the provider: name → Next → 'Sign in with Google' → local IdP. */
export async function signIn(page: Page, workplace: string, email: string, name = 'Test Person'): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Workplace name').fill(workplace);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await localIdp(page, email, name);
}

/** The current TOTP code of a base32 secret (an authenticator app, in the test). */
export const totpNow = (secret: string, offsetSteps = 0): string =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
