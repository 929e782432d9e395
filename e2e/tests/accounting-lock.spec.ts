/**
 * Accounting locks in Chromium (issue 12 §1): lock by date, see it listed, a posting into it refused
 * naming the lock date, the lock date shown on the entry form and the import page, delete.
 */
import { expect, test } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('locks the books by date, refuses an earlier entry naming the lock date, and deletes the lock', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Locks ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, headers } = await apiFor(page);
  const insert = (data: unknown) => page.request.post('/api/accounting/entry/insert', { headers, data });
  await page.goto('/accounting/lock');
  await expect(page.getByText('No locks')).toBeVisible();
  await page.getByLabel('Lock date').fill('31.03.2025');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByText('Books locked up to 31.03.2025')).toBeVisible();
  await expect(page.getByRole('table').getByText('31.03.2025')).toBeVisible();
  await snap(page, 'accounting-lock-01-listed');

  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const entry = (dateLedger: string) => ({
    data: { dateLedger, description: 'Cash', entryAccounts: [{ account: { id: id('1020') }, amount: '5.00', direction: 1 }, { account: { id: id('1000') }, amount: '5.00', direction: -1 }] },
  });
  const refused = await insert(entry('2025-03-15'));
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error).toContain('lock date 2025-03-31');

  // Where entries are made, the lock date is shown before anyone types a date.
  await page.goto('/accounting/entry/add');
  await expect(page.getByTestId('lock-notice')).toHaveText('Books locked up to 31.03.2025: entries dated on or before it are refused.');
  await snap(page, 'accounting-lock-03-entry-form');
  await page.goto('/accounting/import');
  await expect(page.getByTestId('lock-notice')).toBeVisible();
  await page.goto('/accounting/lock');

  await page.getByRole('button', { name: 'Delete the lock of 31.03.2025' }).click();
  await expect(page.getByText('Are you sure you would like to delete that entry?')).toBeVisible();
  await snap(page, 'accounting-lock-02-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No locks')).toBeVisible();
  expect((await insert(entry('2025-03-15'))).status()).toBe(200);
});
