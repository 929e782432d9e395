/**
 * Issue #5 §2 "Import Mail/Dext": a Dext receipts CSV with a bad row is refused with the row listed
 * and nothing imported; the corrected file becomes pending bills with their suppliers.
 */
import { expect, test } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

const header = 'Receipt Date,Supplier Name,Total,Tax Amount,Currency Code,Category,Payment Method';

test('Dext CSV → row errors → corrected → bills', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Dext ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/mail/import');
  await expect(page.getByRole('heading', { name: 'Import Mail/Dext' })).toBeVisible();
  await snap(page, 'dext-01-page');

  const bad = [header, '23/10/2025,Papeterie Zürich AG,108.10,8.10,CHF,4000,Card', '31/02/2025,SBB CFF FFS,abc,,CHF,,Cash'].join('\n');
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Receipts CSV').click();
  await (await chooser).setFiles({ name: 'dext-bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Nothing was imported' })).toBeVisible();
  const errors = page.getByRole('table', { name: 'Row errors' });
  await expect(errors.getByRole('row').filter({ hasText: 'date' })).toContainText('3');
  await expect(errors.getByRole('row').filter({ hasText: 'amount' })).toContainText('amount must be a positive number');
  await snap(page, 'dext-02-row-errors');

  const good = [header, '23/10/2025,Papeterie Zürich AG,108.10,8.10,CHF,4000,Card', '24/10/2025,SBB CFF FFS,"1\'234.50",,CHF,,Cash'].join('\n');
  const chooser2 = page.waitForEvent('filechooser');
  await page.getByLabel('Receipts CSV').click();
  await (await chooser2).setFiles({ name: 'dext.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 bills and 0 expenses created, 2 new suppliers' })).toBeVisible();
  await snap(page, 'dext-03-done');
  await page.getByRole('link', { name: 'Open the bills' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Papeterie Zürich AG' })).toContainText('108,10');
  await expect(page.getByRole('row').filter({ hasText: 'SBB CFF FFS' })).toContainText(/1.234,50/);
  await snap(page, 'dext-04-bills');
});
