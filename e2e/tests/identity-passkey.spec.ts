/**
 * Issue #3 §2: registering a passkey on the profile and signing in with it, in Chromium with a
 * virtual authenticator (Chrome DevTools Protocol WebAuthn domain).
 */
import { expect, test } from '@playwright/test';
import { snap } from './support';
import { signUp } from './identity-support';

test('register a passkey on the profile, then sign in with it', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const workplace = `Passkey ${Date.now().toString(36)}`;
  await signUp(page, workplace, `passkey.${Date.now().toString(36)}@example.ch`, 'Paula Passkey');
  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Webauthn' });
  await section.getByRole('button', { name: 'Register' }).click();
  // Spec §2.6: the Register button itself now reads 'Webauthn Set!'.
  await expect(section.getByRole('button', { name: 'Webauthn Set!' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Register' })).toHaveCount(0);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  await snap(page, 'identity-10-passkey-set');

  // Logout leads to the workplace's login page, which now carries the user uuid: the passkey is offered.
  await page.goto('/logout');
  await page.waitForURL('**/login/**');
  await expect(page.getByRole('heading', { name: `Login to ${workplace}` })).toBeVisible();
  await snap(page, 'identity-11-passkey-login');
  await page.getByRole('button', { name: 'Sign in with Passkey' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]!.signCount).toBeGreaterThan(0);
});
