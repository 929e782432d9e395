import { expect, test } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

// Issue #4 §1–2: a customer with a structured address, a QR-IBAN payment profile and additional
// properties; the Settings page's General Settings and Payment Configuration.
test('create a company with address, QR-IBAN profile and properties; edit settings', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Companies ${Date.now().toString(36)}`, currency: 'CHF' });

  await page.goto('/company');
  await expect(page.getByRole('heading', { name: 'Companies' })).toBeVisible();
  await expect(page.getByText('own company')).toBeVisible();
  await page.getByRole('link', { name: 'New company' }).click();
  await expect(page.getByRole('heading', { name: 'Create Company' })).toBeVisible();

  // Spec §5 messages and the eCH-0097 UID check, before anything is sent.
  await page.getByLabel('UID').fill('CHE-123.456.789');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('UID invalid')).toBeVisible();
  await expect(page.getByText('This field must be given').first()).toBeVisible();
  await snap(page, 'companies-01-add-errors');

  await page.getByLabel('Name').fill('Kunde Muster AG');
  await page.getByLabel('UID').fill('CHE-116.281.710');
  await page.getByLabel('Street').fill('Rue du Rhône');
  await page.getByLabel('House number').fill('12');
  await page.getByLabel('ZIP').fill('1204');
  await page.getByLabel('City').fill('Genève');
  await snap(page, 'companies-02-add');
  await page.getByRole('button', { name: 'Create company' }).click();

  await page.waitForURL(/\/company\/[0-9a-f-]+\/general$/);
  await expect(page.getByRole('heading', { name: 'Kunde Muster AG' })).toBeVisible();
  await expect(page.getByRole('link', { name: /CHE-116\.281\.710/ })).toHaveAttribute('href', 'https://www.uid.admin.ch/Detail.aspx?uid_id=CHE116281710');
  await snap(page, 'companies-03-general');

  await page.getByRole('tab', { name: 'Addresses' }).click();
  await expect(page.getByRole('cell', { name: 'Rue du Rhône' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '12', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Edit address/ }).click();
  await page.getByLabel('House number').fill('12bis');
  await page.getByLabel('ZIP').fill('');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('This field must be given')).toBeVisible();
  await page.getByLabel('ZIP').fill('1204');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('cell', { name: '12bis', exact: true })).toBeVisible();
  await snap(page, 'companies-04-addresses');

  // Payment profile: a plain IBAN as QR bill is refused in the open form, then a QR-IBAN is added.
  await page.getByRole('tab', { name: 'Payment profiles' }).click();
  await expect(page.getByText('No Payment Profiles Found')).toBeVisible();
  await page.getByRole('button', { name: 'Add payment profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add payment profile' });
  await dialog.getByRole('combobox', { name: 'Account' }).click();
  await dialog.getByRole('combobox', { name: 'Account' }).fill('1000');
  await page.getByRole('option', { name: /^1000 / }).first().click();
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'QR bill', exact: true }).click();
  await dialog.getByLabel('QR-IBAN').fill('CH93 0076 2011 6238 5295 7');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('The QR IBAN is invalid')).toBeVisible();
  await snap(page, 'companies-05-profile-error');
  await dialog.getByLabel('QR-IBAN').fill('CH44 3199 9123 0008 8901 2');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('CH44 3199 9123 0008 8901 2')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'QR bill' })).toBeVisible();
  await snap(page, 'companies-06-profiles');

  // Additional properties, validated and shown by type.
  await page.getByRole('tab', { name: 'Additional properties' }).click();
  const addProperty = async (type: string, name: string, value: string) => {
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Value').fill(value);
    await page.getByRole('button', { name: 'Add property' }).click();
  };
  await addProperty('Phone', 'Phone', '123');
  await expect(page.getByText('phone number invalid')).toBeVisible();
  await page.getByLabel('Value').fill('+41 22 123 45 67');
  await page.getByRole('button', { name: 'Add property' }).click();
  await expect(page.getByRole('link', { name: '+41 22 123 45 67' })).toHaveAttribute('href', 'tel:+41221234567');
  await addProperty('Email', 'Billing', 'billing@kunde.ch');
  await expect(page.getByRole('link', { name: 'billing@kunde.ch' })).toBeVisible();
  await addProperty('Amount', 'Credit limit', '25000');
  await expect(page.getByRole('cell', { name: /25.000,00/ })).toBeVisible();
  await addProperty('Reference Number', 'Reference', 'RF18539007547034');
  await expect(page.getByText('RF18 5390 0754 7034')).toBeVisible();
  await snap(page, 'companies-07-properties');

  await page.getByRole('tab', { name: 'Receivables & payables' }).click();
  await expect(page.getByText('Open receivables')).toBeVisible();
  await expect(page.getByText('Nothing open.').first()).toBeVisible();
  await snap(page, 'companies-08-ap-ar');

  await page.goto('/company');
  await page.getByLabel('Search').fill('genève');
  await expect(page.getByRole('link', { name: 'Kunde Muster AG' })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Search').fill('');
  await expect(page.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('row').nth(1)).toContainText(' AG');
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('row').nth(1)).toContainText('Kunde Muster AG');
  await expect(page.getByText('2 companies')).toBeVisible();
  await snap(page, 'companies-09-list');

  // CSV import: all or nothing, each bad row named.
  await page.getByRole('button', { name: 'Import' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import companies' });
  const csv = (body: string) => ({ name: 'companies.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
  await importDialog.locator('input[type=file]').setInputFiles(csv('name,uid,street,houseNumber,zip,city,country\nLieferant GmbH,,Industriestrasse,7,6300,Zug,CH\nBad AG,CHE-123.456.789,,,,,\n'));
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(importDialog.getByText('line 3.uid: UID invalid')).toBeVisible();
  await snap(page, 'companies-09b-import-error');
  await importDialog.locator('input[type=file]').setInputFiles(csv('name,uid,street,houseNumber,zip,city,country\nLieferant GmbH,,Industriestrasse,7,6300,Zug,CH\nGood AG,CHE-116.281.710,,,,,\n'));
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(importDialog).toBeHidden();
  await expect(page.getByText('4 companies')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Industriestrasse 7, 6300 Zug' })).toBeVisible();

  // Settings (spec §2.7).
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'General Settings' })).toBeVisible();
  await expect(page.getByText('8.1 %')).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('VAT rate (%)').fill('120');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText("VAT can't exceed 99%")).toBeVisible();
  await page.getByLabel('VAT rate (%)').fill('7.7');
  await page.getByLabel('VAT number').fill('CHE-116.281.710 MWST');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('7.7 %')).toBeVisible();
  await expect(page.getByRole('link', { name: /CHE-116\.281\.710 MWST/ })).toHaveAttribute('href', /uid_id=CHE116281710/);
  await expect(page.getByText('CH93 0076 2011 6238 5295 7')).toBeVisible();
  await snap(page, 'companies-10-settings');

  await page.getByRole('button', { name: /^Delete payment profile/ }).first().click();
  await expect(page.getByText('Are you sure you would like to delete that entry?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No Payment Profiles Found')).toBeVisible();
  await snap(page, 'companies-11-settings-empty');
});

// Spec §2.9: without register credentials the company step says the search is not available and
// the manual form is one click away (the Zefix adapter itself is tested against a local server
// in apps/server/test/companies/extras.test.ts).
test('onboarding company step without a configured commercial register', async ({ page }) => {
  await page.goto('/login/signup');
  await page.getByLabel('Workplace name').fill(`Register ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('I read and agree to the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.locator('#email').fill('rita.register@example.ch');
  await page.locator('#name').fill('Rita Register');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/onboarding');
  await expect(page.getByText('The commercial register search is not available')).toBeVisible();
  await expect(page.getByText(/not connected to this installation/)).toBeVisible();
  await expect(page.getByLabel('Search the Swiss commercial register')).toBeDisabled();
  await snap(page, 'companies-12-onboarding-register');
  await page.getByRole('button', { name: 'We are not a registered Swiss company' }).click();
  await expect(page.getByLabel('Company name')).toBeVisible();
});
