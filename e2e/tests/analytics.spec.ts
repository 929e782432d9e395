/**
 * Analytics in Chromium (issue 12 §4): the dashboard's tiles and cards follow the year, the
 * analytics page ranks customers, suppliers and accounts of a year with share bars and a CSV file,
 * and an EUR bank account shows its balance in EUR and in CHF.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { shownAmount, signUpAndOnboard, snap } from './support';

async function setYear(page: Page, year: string) {
  await page.getByRole('textbox', { name: 'Year' }).fill(year);
}

test('the dashboard follows the year, the analytics rank the customers of a year, an EUR account shows both currencies', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Analytics ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, get } = await apiFor(page);
  const company = async (name: string) =>
    (await (await post('/api/company/insert', { data: { name, address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } } })).json()) as {
      uuid: string;
    };
  const alpha = await company('Alpha Kunden AG');
  const beta = await company('Beta Handel GmbH');
  const customers: Record<string, string> = { 'Alpha Kunden AG': alpha.uuid, 'Beta Handel GmbH': beta.uuid };
  const options = (await (await get('/api/invoice/form-options')).json()) as { paymentProfiles: { id: number }[] };
  // The customers' addresses come from address/list.
  const firstAddress = async (uuid: string) =>
    ((await (await post('/api/address/list', { filters: { company: { uuid } } })).json()) as { data: { id: number }[] }).data[0]!.id;
  const invoice = async (customerName: string, date: string, price: string) => {
    const customer = { uuid: customers[customerName]! };
    const created = await (
      await post('/api/invoice/insert', {
        data: {
          company: { uuid: customer.uuid },
          address: { id: await firstAddress(customer.uuid) },
          paymentProfile: { id: options.paymentProfiles[0]!.id },
          vat: '0.081',
          dateInvoice: date,
          dateDue: date,
          items: [{ name: 'Beratung', amount: '1', price }],
        },
      })
    ).json();
    await post('/api/invoice/status/change', { uuid: created.uuid, status: 2, ledgerDate: date });
  };
  await invoice('Alpha Kunden AG', '2024-05-10', '1000.00');
  await invoice('Beta Handel GmbH', '2024-11-20', '400.00');
  await invoice('Alpha Kunden AG', '2025-02-03', '250.00');
  const expense = await (await post('/api/payable/insert', { data: { isExpense: true, date: '2024-08-15', amount: '64.80', vatAmount: '4.86', description: 'Zugbillett' } })).json();
  await post('/api/payable/update', { uuid: expense.uuid, data: { status: 2 } });

  // The tiles count the documents of the chosen year; the cards are the accounts non-zero at its end.
  await page.goto('/');
  await setYear(page, '2024');
  await expect(page.getByTestId('count-Invoice')).toHaveText('2');
  await expect(page.getByTestId('count-Payable')).toHaveText('1');
  await expect(page.getByText('Ledger accounts in 2024')).toBeVisible();
  await expect(page.getByText('Handelserlöse 8.1%')).toBeVisible();
  await snap(page, 'analytics-01-dashboard-2024');
  await setYear(page, '2025');
  await expect(page.getByTestId('count-Invoice')).toHaveText('1');
  await expect(page.getByTestId('count-Payable')).toHaveText('0');
  await setYear(page, '2023');
  await expect(page.getByTestId('count-Invoice')).toHaveText('0');
  await expect(page.getByText('No ledger account has a balance at the end of 2023.')).toBeVisible();

  // Reports → Analytics: the year is the one observed on the dashboard until changed here.
  await page.goto('/report');
  await snap(page, 'analytics-00-reports');
  await page.getByRole('link', { name: 'Open analytics' }).click();
  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Year' })).toHaveValue('2023');
  await expect(page.getByText('No invoice was sent or denied in 2023.')).toBeVisible();
  await setYear(page, '2024');
  const table = page.getByRole('table', { name: 'Revenue by customer 2024' });
  const rows = table.getByRole('row');
  await expect(rows.nth(1)).toContainText('Alpha Kunden AG');
  await expect(rows.nth(1)).toContainText('71,4 %');
  await expect(rows.nth(2)).toContainText('Beta Handel GmbH');
  expect(shownAmount(await rows.nth(1).getByRole('cell').nth(3).innerText())).toBe('1000.00');
  expect(shownAmount(await rows.nth(3).getByRole('cell').nth(1).innerText())).toBe('1400.00');
  await snap(page, 'analytics-02-revenue-by-customer');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('RevenueByCustomer-2024.csv');
  expect(readFileSync(await file.path(), 'utf8')).toBe('\uFEFFCustomer;Invoices;Amount;Share\nAlpha Kunden AG;1;1000,00;71,4\nBeta Handel GmbH;1;400,00;28,6\n');

  await page.getByRole('tab', { name: 'Expenses by supplier' }).click();
  await expect(page.getByRole('table', { name: 'Expenses by supplier 2024' }).getByRole('row').nth(1)).toContainText('Staff expenses');
  await page.getByRole('tab', { name: 'Revenue by account' }).click();
  await expect(page.getByRole('table', { name: 'Revenue by account 2024' }).getByRole('row').nth(1)).toContainText('3200 Handelserlöse 8.1%');
  await snap(page, 'analytics-03-revenue-by-account');
  await page.getByRole('tab', { name: 'Revenue by customer' }).click();
  await page.getByRole('link', { name: 'Alpha Kunden AG' }).click();
  await expect(page).toHaveURL(new RegExp(`/company/${alpha.uuid}/ap-ar$`));

  // An EUR bank account: 1000 EUR at 0.95 and 500 EUR at 0.94373 (471.87 CHF), 10.00 CHF revaluation.
  const account = await (await post('/api/accounting/account/insert', { data: { number: '1025', name: 'Bank EUR', currency: 'EUR' } })).json();
  const accounts = await (await post('/api/accounting/account/list', {})).json();
  const id = (number: string) => accounts.data.find((a: { number: string }) => a.number === number).id as number;
  const euro = (originalAmount: string, exchangeRate: string, amount: string) => ({ account: { id: account.id }, direction: 1, amount, currency: 'EUR', originalAmount, exchangeRate });
  for (const [dateLedger, line, amount] of [
    ['2025-01-10', euro('1000.00', '0.95', '950.00'), '950.00'],
    ['2025-02-10', euro('500.00', '0.94373', '471.87'), '471.87'],
    ['2025-03-31', { account: { id: account.id }, direction: 1, amount: '10.00' }, '10.00'],
  ] as const) {
    await post('/api/accounting/entry/insert', { data: { dateLedger, description: 'EUR', entryAccounts: [line, { account: { id: id('3200') }, amount, direction: -1 }] } });
  }
  await page.goto(`/accounting/account/${account.id}/detail`);
  const balance = page.getByTestId('foreign-balance');
  await expect(balance).toContainText('EUR');
  await expect(balance).toContainText('booked at 0.9479 CHF per EUR on average');
  await expect(balance).toContainText('booked in other currencies than EUR');
  expect(shownAmount((await balance.locator('.amount').nth(0).innerText()))).toBe('1500.00');
  expect(shownAmount((await balance.locator('.amount').nth(1).innerText()))).toBe('1431.87');
  await snap(page, 'analytics-04-eur-account');
});
