/**
 * Accounting checks in Chromium (issue 12 §2): the page runs the checks on load, shows a failing
 * check (a manual posting on the receivables account) with its linked entry and a warning (an entry
 * dated next year); after the entry is deleted from its own page, running the checks again passes.
 */
import { expect, test } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap, swissToday } from './support';

test('shows a failing check with its linked entry, and passes once the entry is deleted', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Checks ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const entry = (dateLedger: string, debit: string, credit: string, amount: string, description: string) => ({
    data: { dateLedger, description, entryAccounts: [{ account: { id: id(debit) }, amount, direction: 1 }, { account: { id: id(credit) }, amount, direction: -1 }] },
  });
  const year = new Date().getFullYear();
  const today = swissToday();
  const receivable = await (await post('/api/accounting/entry/insert', entry(today, '1100', '3400', '300.00', 'Forderung ohne Rechnung'))).json();
  const future = await (await post('/api/accounting/entry/insert', entry(`${year + 1}-02-01`, '1020', '3400', '12.00', 'Tippfehler im Jahr'))).json();

  await page.goto('/accounting/checks');
  await expect(page.getByRole('heading', { name: 'Accounting Checks' })).toBeVisible();
  const receivables = page.getByTestId('check-receivables');
  await expect(receivables).toHaveAttribute('data-status', 'failed');
  await expect(receivables).toContainText('Failed');
  await expect(receivables).toContainText('a difference of CHF 300.00');
  // A failure opens with its items; the entry is linked.
  const link = receivables.getByRole('link', { name: /Forderung ohne Rechnung/ });
  await expect(link).toHaveAttribute('href', `/accounting/entry/${receivable.id}/detail`);
  await expect(page.getByTestId('check-future-entries')).toHaveAttribute('data-status', 'warning');
  await expect(page.getByTestId('check-trial-balance')).toHaveAttribute('data-status', 'passed');
  await expect(page.getByText(/1 check failed, 1 warning, 11 passed/)).toBeVisible();
  // A warning's items wait for a click.
  const futureRow = page.getByTestId('check-future-entries');
  await futureRow.getByRole('button', { name: 'Show 1 item' }).click();
  await expect(futureRow.getByRole('link', { name: /Tippfehler im Jahr/ })).toBeVisible();
  await snap(page, 'accounting-checks-01-failing');
  await page.screenshot({ path: '/tmp/accounting-checks-failing.png' });

  // The presets run the checks for their period: last year has no entries.
  await page.getByRole('button', { name: `Last year (${year - 1})` }).click();
  await expect(page.getByText(`01.01.${year - 1} to 31.12.${year - 1}: 0 checks failed, 1 warning, 12 passed.`)).toBeVisible();
  await expect(page.getByLabel('From')).toHaveValue(`01.01.${year - 1}`);
  await page.getByRole('button', { name: `This year (${year})` }).click();
  await expect(receivables).toHaveAttribute('data-status', 'failed');

  // Fix it where the link leads: delete the manual entry.
  await receivables.getByRole('link', { name: /Forderung ohne Rechnung/ }).click();
  await expect(page).toHaveURL(new RegExp(`/accounting/entry/${receivable.id}/detail$`));
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/accounting\/entry$/);
  await post('/api/accounting/entry/delete', { id: future.id });

  await page.goto('/accounting/checks');
  await page.getByRole('button', { name: 'Run checks' }).click();
  await expect(receivables).toHaveAttribute('data-status', 'passed');
  await expect(page.getByTestId('check-future-entries')).toHaveAttribute('data-status', 'passed');
  await expect(page.getByText(/0 checks failed, 0 warnings, 13 passed/)).toBeVisible();
  await expect(page.getByTestId('checks-status')).toHaveText('Passed');
  await snap(page, 'accounting-checks-02-passed');
  await page.screenshot({ path: '/tmp/accounting-checks-passed.png' });
});
