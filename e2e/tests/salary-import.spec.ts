/**
 * Issue 16 §3 "Salary import": a payroll journal with a wrong wage type and unbalanced rows is
 * refused row by row, nothing posted; the 5-person company's January and February (the API tests'
 * fixture) are previewed and posted → monthly entries in the journal → the January net salaries
 * paid in a payment run whose pain.001 marks them SALA.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

const payroll = readFileSync(new URL('../../apps/server/test/fixtures/salary/payroll-2026.csv', import.meta.url), 'utf8');
const [header, ...rows] = payroll.trim().split('\n');
const twoMonths = [header, ...rows.filter((row) => row.startsWith('01.2026') || row.startsWith('02.2026'))].join('\n');

test('salary file → row errors → preview → journal → net salaries paid in a payment run (SALA)', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpAndOnboard(page, { name: `Lohn ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/salary/import');
  await expect(page.getByRole('heading', { name: 'Salary Import' })).toBeVisible();
  await expect(page.getByText('not available yet')).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Wage type 1000 debit account' })).toHaveValue('5000');
  await snap(page, 'salary-01-page');

  const badWithAccount = `Periode;Mitarbeiter;Lohnart;Konto;Betrag\n01.2026;Anna Muster;1000;;7200.00\n01.2026;Anna Muster;9999;;50.00\n01.2026;Anna Muster;;5000;120.00\n`;
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Payroll journal').click();
  await (await chooser).setFiles({ name: 'lohn-falsch.csv', mimeType: 'text/csv', buffer: Buffer.from(badWithAccount) });
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was posted' })).toBeVisible();
  const errors = page.getByRole('table', { name: 'Row errors' });
  await expect(errors.getByRole('row').filter({ hasText: 'wagetype' })).toContainText('unknown wage type "9999"');
  await expect(errors.getByRole('row').filter({ hasText: 'does not balance' })).toContainText('debit minus credit is 120.00');
  await snap(page, 'salary-02-row-errors');

  const chooser2 = page.waitForEvent('filechooser');
  await page.getByLabel('Payroll journal').click();
  await (await chooser2).setFiles({ name: 'lohnjournal-2026-01-02.csv', mimeType: 'text/csv', buffer: Buffer.from(twoMonths) });
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByLabel('Preview');
  await expect(preview.getByRole('heading', { name: /Preview: 2 entries, 134 rows, 5 employees, 2026-01 to 2026-02/ })).toBeVisible();
  await preview.getByRole('button', { name: /2026-01-31 · Salaries 2026-01/ }).click();
  await expect(preview.getByRole('table', { name: 'Postings of Salaries 2026-01' })).toContainText('1091 Lohndurchlaufkonto');
  await expect(preview.getByRole('table', { name: 'Net salaries owed' }).getByRole('row')).toHaveCount(11);
  await snap(page, 'salary-03-preview');

  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Salaries posted' })).toContainText('2 journal entries (2026-01 to 2026-02) and 10 net salaries owed to employees');
  await expect(page.getByRole('table', { name: 'Posted salary imports' })).toContainText('lohnjournal-2026-01-02.csv');
  await snap(page, 'salary-04-posted');

  await page.getByRole('link', { name: 'Open the journal' }).click();
  await page.waitForURL('**/accounting/journal');
  await expect(page.getByText('Salaries 2026-01').first()).toBeVisible();
  await expect(page.getByText('Salaries 2026-02').first()).toBeVisible();
  await snap(page, 'salary-05-journal');

  // The January net salaries: five approved staff expenses, paid together.
  await page.goto('/bill');
  await page.getByLabel('Search').fill('Net salary 2026-01');
  await expect(page.getByRole('checkbox', { name: /Select bill/ })).toHaveCount(5);
  for (const box of await page.getByRole('checkbox', { name: /Select bill/ }).all()) await box.check();
  await snap(page, 'salary-06-claims');
  await page.getByRole('button', { name: 'Pay selected (5)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create transaction group' }).click();
  await page.waitForURL('**/transaction-group/*/detail');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download pain.001' }).click();
  const xml = readFileSync((await (await download).path())!, 'utf8');
  expect(xml).toContain('<NbOfTxs>5</NbOfTxs>');
  expect(xml).toMatch(/<PmtTpInf>\s*<CtgyPurp>\s*<Cd>SALA<\/Cd>/);
  expect(xml).toContain('<Nm>Elena Meier</Nm>');
  await snap(page, 'salary-07-payment-run');
});

test('a bill books to a fixed asset: the account search finds 1510 Mobiliar by number and by name (issue 16 §4)', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Mobiliar ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/bill/add');
  await expect(page.getByRole('heading', { name: 'Add bill' })).toBeVisible();
  const account = page.getByRole('combobox', { name: 'Account', exact: true });
  await account.fill('1510');
  await expect(page.getByRole('option', { name: '1510 Mobiliar und Einrichtungen' })).toBeVisible();
  await account.fill('Mobiliar');
  await expect(page.getByRole('option', { name: '1510 Mobiliar und Einrichtungen' })).toBeVisible();
  // Not a purchase account: the bank is not offered.
  await account.fill('1020');
  await expect(page.getByRole('option')).toHaveCount(0);
  await account.fill('Mobiliar');
  await snap(page, 'salary-08-bill-account-1510');
  await page.getByRole('option', { name: '1510 Mobiliar und Einrichtungen' }).click();
  await expect(account).toHaveValue('1510 Mobiliar und Einrichtungen');
});
