/**
 * VAT on a journal entry in Chromium (issue 13 §2): 108.10 gross on 6500 with the input tax code
 * M81, the split (100.00 on 6500 + 8.10 on 1170) shown under the lines before saving, saved, and the
 * postings with their VAT on the entry's page; the VAT codes page lists the seeded codes.
 */
import { expect, test } from '@playwright/test';
import { shownAmount, signUpAndOnboard, snap } from './support';

test('books 108.10 gross with input VAT 8.1 %, sees the split before saving and the two postings after', async ({ page }) => {
  await signUpAndOnboard(page, { name: `VAT ${Date.now().toString(36)}`, currency: 'CHF' });

  await page.goto('/accounting/vat-codes');
  await expect(page.getByRole('heading', { name: 'VAT Codes' })).toBeVisible();
  const m81 = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'M81', exact: true }) });
  await expect(m81).toContainText('Input tax on material and services, standard rate');
  await expect(m81).toContainText('8.1 %');
  await expect(m81).toContainText('1170');
  await snap(page, 'vat-codes-01-list');
  await page.screenshot({ path: '/tmp/vat-codes-list.png', fullPage: true });
  await page.getByRole('button', { name: 'Edit B81' }).click();
  const dialog = page.getByRole('dialog', { name: 'VAT code B81' });
  await expect(dialog.getByLabel('Deduction account')).toHaveValue('1170');
  await page.screenshot({ path: '/tmp/vat-codes-edit.png' });
  await dialog.getByLabel('Name').fill('Bezugsteuer 8.1 %');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'B81', exact: true }) })).toContainText('Bezugsteuer 8.1 %');

  await page.goto('/accounting/entry/add');
  const date = page.getByRole('textbox', { name: 'Date' });
  await date.fill('15.03.2025');
  await date.press('Tab');
  await page.getByLabel('Description').fill('Office paper');
  await page.getByRole('combobox', { name: 'Account, line 1' }).click();
  await page.getByRole('combobox', { name: 'Account, line 1' }).fill('6500');
  await page.getByRole('option', { name: /^6500 / }).first().click();
  await page.getByLabel('Debit, line 1').fill('108.10');
  await page.getByRole('combobox', { name: 'VAT code, line 1' }).click();
  await page.getByRole('combobox', { name: 'VAT code, line 1' }).fill('M81');
  await page.getByRole('option', { name: /^M81 / }).click();
  await page.getByRole('combobox', { name: 'Account, line 2' }).click();
  await page.getByRole('combobox', { name: 'Account, line 2' }).fill('1020');
  await page.getByRole('option', { name: /^1020 / }).first().click();
  await page.getByLabel('Credit, line 2').fill('108.10');

  // The split, before saving: base 100.00 on 6500, tax 8.10 on 1170, the bank 108.10.
  const preview = page.getByRole('region', { name: 'Postings after VAT' });
  await expect(preview).toBeVisible();
  const rows = preview.getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('6500');
  await expect(rows.nth(1)).toContainText('M81 base 8.1 %');
  expect(shownAmount(await rows.nth(1).getByRole('cell').nth(2).innerText())).toBe('100.00');
  await expect(rows.nth(2)).toContainText('1170');
  await expect(rows.nth(2)).toContainText('M81 tax 8.1 %');
  expect(shownAmount(await rows.nth(2).getByRole('cell').nth(2).innerText())).toBe('8.10');
  expect(shownAmount(await rows.nth(3).getByRole('cell').nth(3).innerText())).toBe('108.10');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await expect(save).toBeEnabled();
  await snap(page, 'vat-entry-01-split');
  await page.screenshot({ path: '/tmp/vat-entry-split.png', fullPage: true });

  // Excluding VAT: the tax is added, the difference shows it and Save waits for the bank to match.
  await page.getByText('excl. VAT', { exact: true }).click();
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText(/108[.,]10/);
  await expect(save).toBeDisabled();
  await page.getByText('incl. VAT', { exact: true }).click();
  await expect(save).toBeEnabled();

  await save.click();
  await page.waitForURL((url) => url.pathname === '/');
  const banner = page.getByRole('status').filter({ hasText: 'was successfully added.' });
  await banner.getByRole('link').click();
  const table = page.getByRole('table').first();
  const paper = table.getByRole('row').filter({ hasText: '6500' });
  const tax = table.getByRole('row').filter({ hasText: '1170' });
  await expect(paper).toContainText('M81 base 8.1 %');
  expect(shownAmount(await paper.getByRole('cell').nth(3).innerText())).toBe('100.00');
  await expect(tax).toContainText('M81 tax 8.1 %');
  expect(shownAmount(await tax.getByRole('cell').nth(3).innerText())).toBe('8.10');
  await snap(page, 'vat-entry-02-detail');
  await page.screenshot({ path: '/tmp/vat-entry-detail.png', fullPage: true });
});
