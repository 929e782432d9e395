import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { fixturesDir, shownAmount, signUpAndOnboard, snap } from './support';

/**
 * The real ledger from the web: a USD workplace imports the beancount example's chart and journal
 * on the import page and its trial balance equals expected-trial-balance.csv to the cent.
 */
test('import the beancount example and see its trial balance', async ({ page }) => {
  const dir = join(fixturesDir, 'beancount-example');
  await signUpAndOnboard(page, { name: `Beancount ${Date.now()}`, currency: 'USD' });

  await page.goto('/accounting/import');
  await expect(page.getByRole('heading', { name: 'Import Accounting Data' })).toBeVisible();
  const chartCard = page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: 'Chart of accounts' }) });
  const journalCard = page.locator('.mantine-Card-root').filter({ hasText: 'Journal' }).filter({ hasText: 'date,entry' });

  // Before the chart exists, a journal with unknown numbers is refused whole: every unknown number
  // is listed on its own (spec §8 'could not map account {number}') and nothing is booked.
  await journalCard.locator('input[type=file]').setInputFiles({
    name: 'unknown.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'date,entry,description,account,amount,currency\n' +
        '2015-01-02,1,Rent,9991,100.00,USD\n2015-01-02,1,Rent,9992,-100.00,USD\n' +
        '2015-01-03,2,Coffee,1000,4.50,USD\n2015-01-03,2,Coffee,9993,-4.00,USD\n',
    ),
  });
  await journalCard.getByRole('button', { name: 'Import' }).click();
  const failure = journalCard.getByRole('alert');
  await expect(failure).toContainText('Nothing was imported');
  const unmapped = failure.getByRole('listitem');
  await expect(unmapped).toHaveText(['could not map account 9991', 'could not map account 9992', 'could not map account 9993']);
  await snap(page, '29-import-unknown-accounts');

  await chartCard.locator('input[type=file]').setInputFiles(join(dir, 'chart.csv'));
  await expect(chartCard.getByText('50 rows in chart.csv', { exact: false })).toBeVisible();
  await chartCard.getByRole('button', { name: 'Import' }).click();
  await expect(chartCard.getByText(/created|updated|imported/i).first()).toBeVisible();

  await journalCard.locator('input[type=file]').setInputFiles(join(dir, 'journal.csv'));
  await expect(journalCard.getByText('3258 rows in journal.csv', { exact: false })).toBeVisible();
  await journalCard.getByRole('button', { name: 'Import' }).click();
  await expect(journalCard.getByText(/imported|entries/i).first()).toBeVisible({ timeout: 60_000 });
  await snap(page, '30-import-done');

  await page.goto('/accounting/trial-balance');
  await expect(page.getByRole('link', { name: '1000', exact: true })).toBeVisible();
  const expected = readFileSync(join(dir, 'expected-trial-balance.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map((cell) => cell.trim()))
    .filter(([, , balance]) => balance !== '0.00');
  expect(expected.length).toBeGreaterThan(20);
  for (const [account, , balance] of expected) {
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: account!, exact: true }) });
    expect(shownAmount(await row.getByRole('cell').nth(4).innerText()), `account ${account}`).toBe(balance);
  }
  const totals = page.locator('tfoot tr');
  const [debit, credit, balance] = await Promise.all([2, 3, 4].map((index) => totals.locator('td').nth(index - 1).innerText()));
  expect(shownAmount(debit!)).toBe(shownAmount(credit!));
  expect(shownAmount(balance!)).toBe('0.00');
  await snap(page, '31-trial-balance-beancount');

  await page.goto('/');
  await expect(page.getByText('Assets:US:BofA:Checking', { exact: false }).first()).toBeVisible();
  await snap(page, '32-dashboard-beancount');
});
