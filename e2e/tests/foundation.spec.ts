import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { shownAmount, signUpAndOnboard, snap } from './support';

/**
 * The foundation journey of issue #2 in a real browser on the built app: sign up through the
 * built-in OpenID provider → onboarding → add a journal entry → banner, journal, trial balance,
 * account detail and dashboard; then every page of the menu, screenshotted.
 */
test.describe.configure({ mode: 'serial' });

test('sign up, onboard and keep books', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const name = `Muster Treuhand ${Date.now()}`;
  await signUpAndOnboard(page, { name, currency: 'CHF' }, true);
  await expect(page.getByText('v1.0.3')).toBeVisible();
  await snap(page, '07-dashboard-empty');

  // Add a balanced entry: bank 1000 debit 1'250.50 / revenue 3200 credit.
  await page.goto('/accounting/entry/add');
  await expect(page.getByRole('heading', { name: 'Add Journal Entry' })).toBeVisible();
  const date = page.getByRole('textbox', { name: 'Date' });
  await date.fill('15.01.2026');
  await date.press('Tab');
  await expect(date).toHaveValue('15.01.2026');
  await page.getByLabel('Description').fill('Consulting January');
  await page.getByRole('combobox', { name: 'Account, line 1' }).click();
  await page.getByRole('combobox', { name: 'Account, line 1' }).fill('1000');
  await page.getByRole('option', { name: /^1000 / }).first().click();
  await page.getByLabel('Debit, line 1').fill('1250.50');
  await page.getByRole('combobox', { name: 'Account, line 2' }).click();
  await page.getByRole('combobox', { name: 'Account, line 2' }).fill('3200');
  await page.getByRole('option', { name: /^3200 / }).first().click();
  await page.getByLabel('Credit, line 2').fill('1000');
  // Unbalanced: the save button stays disabled.
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeDisabled();
  await page.getByLabel('Credit, line 2').fill('1250.50');
  await snap(page, '08-entry-add');
  await expect(save).toBeEnabled();
  await save.click();

  await page.waitForURL((url) => url.pathname === '/');
  const banner = page.getByRole('status').filter({ hasText: 'was successfully added.' });
  await expect(banner).toContainText(/Journal Entry \d+ was successfully added\./);
  // The bank's card shows the balance at the month-ends of the year.
  await expect(page.getByText(/^1\s?250[.,]50$/).first()).toBeVisible();
  await snap(page, '09-dashboard-banner');
  await banner.getByRole('link').click();
  await expect(page.getByText('Consulting January').first()).toBeVisible();
  await snap(page, '10-entry-detail');

  await page.goto('/accounting/journal');
  await expect(page.getByText('Consulting January').first()).toBeVisible();
  await snap(page, '11-journal');

  await page.goto('/accounting/entry');
  await expect(page.getByText('Consulting January').first()).toBeVisible();
  await snap(page, '12-entries');

  await page.goto('/accounting/trial-balance');
  const bankRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: '1000', exact: true }) });
  await expect(bankRow).toBeVisible();
  const cells = bankRow.getByRole('cell');
  expect(shownAmount(await cells.nth(2).innerText())).toBe('1250.50');
  expect(shownAmount(await cells.nth(4).innerText())).toBe('1250.50');
  const revenueRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: '3200', exact: true }) });
  expect(shownAmount(await revenueRow.getByRole('cell').nth(4).innerText())).toBe('-1250.50');
  await snap(page, '13-trial-balance');

  // The CSV download is the person's file (decision 034): the spec's fr-CH number format gives decimal
  // commas, ';' between fields and a BOM for Excel; the headers are in the UI's language. A period (From) adds opening balances.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^TrialBalance-\d{4}-\d{2}-\d{2}\.csv$/);
  const csvText = readFileSync((await csv.path())!, 'utf8');
  expect(csvText.split('\n')[0]).toBe('\uFEFFAccount;Name;Debit;Credit;Balance');
  expect(csvText).toContain('1000;Bank;1250,50;0,00;1250,50\n');
  const from = page.getByRole('textbox', { name: 'From' });
  await from.fill('01.02.2026');
  await from.press('Tab');
  await expect(page.getByRole('columnheader', { name: 'Opening balance' })).toBeVisible();
  expect(shownAmount(await bankRow.getByRole('cell').nth(2).innerText())).toBe('1250.50');
  expect(shownAmount(await bankRow.getByRole('cell').nth(3).innerText())).toBe('0.00');
  expect(shownAmount(await bankRow.getByRole('cell').nth(5).innerText())).toBe('1250.50');
  await snap(page, '13b-trial-balance-period');
  await page.getByRole('button', { name: 'This year' }).click();
  await expect(from).toHaveValue(/^01\.01\.\d{4}$/);

  await bankRow.getByRole('link', { name: '1000' }).click();
  await expect(page.getByText('Consulting January').first()).toBeVisible();
  await snap(page, '14-account-detail');

  await page.goto('/accounting/account');
  await expect(page.getByRole('heading', { name: 'Ledger Accounts' })).toBeVisible();
  await expect(page.getByText('Bank').first()).toBeVisible();
  await snap(page, '15-accounts');

  // Pages of later issues say so; unknown paths say Page Not Found.
  const pages: Array<[string, string]> = [
    ['/accounting', 'accounting'],
    ['/accounting/import', 'accounting-import'],
    ['/invoice', 'invoices'],
    ['/company', 'companies'],
    ['/bill', 'bills'],
    ['/transaction-group', 'transaction-groups'],
    ['/report', 'reports'],
    ['/settings', 'settings'],
    ['/profile', 'profile'],
    ['/support', 'support'],
    ['/accounting/lock', 'lock'],
  ];
  for (const [path, name] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Page Not Found')).toHaveCount(0);
    await snap(page, `20-${name}`);
  }
  await page.goto('/no/such/page');
  await expect(page.getByText('Page Not Found').first()).toBeVisible();
  await snap(page, '21-not-found');

  // Logout revokes the session and comes back to this workplace's login page.
  await page.goto('/logout');
  await expect(page.getByRole('heading', { name: /^Login to Muster Treuhand/ })).toBeVisible();
  await snap(page, '22-login-instance');
  await page.goto('/accounting/journal');
  await page.waitForURL('**/login**');

  // Signing in again by workplace name and provider lands in the same books.
  await page.getByLabel('Workplace name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: `Login to ${name}` })).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  const email = page.locator('#email');
  await page.waitForURL((url) => url.pathname === '/' || url.pathname.startsWith('/oidc/'));
  if (new URL(page.url()).pathname.startsWith('/oidc/')) {
    await email.fill('anna.muster@example.ch');
    await page.locator('#name').fill('Anna Muster');
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/accounting/journal');
  await expect(page.getByText('Consulting January').first()).toBeVisible();

  expect(errors).toEqual([]);
});

test('the workplace-name form leads to the instance login page', async ({ page }) => {
  await page.goto('/login/anything/else');
  await expect(page.getByLabel('Workplace name')).toBeVisible();
  await page.getByLabel('Workplace name').fill('No Such Workplace Anywhere');
  await page.getByRole('button', { name: /Next|Continue|Log in/ }).first().click();
  await expect(page.getByRole('alert').or(page.getByText(/not found|does not exist|could not be reached/i)).first()).toBeVisible();
  await snap(page, '23-login-unknown');
});
