/**
 * Quotes and recurring invoices in Chromium (issue 15 §4, decision 031): a quote made in the
 * invoice form → sent → accepted → 'Create invoice' → the invoice's detail (pending, same lines);
 * a quarterly recurring invoice created in the UI with its schedule. Port 3213.
 */
import { expect, test, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { signUpAndOnboard, snap } from './support';

async function choose(page: Page, name: string, option: string | RegExp): Promise<void> {
  await page.getByRole('combobox', { name }).click();
  await page.getByRole('option', { name: option }).first().click();
}

test('quote → send → accept → Create invoice → invoice detail; a recurring invoice created in the UI', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Offerte ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  // The customer and an own IBAN profile (the invoice form's choices).
  const bank = (await api('/api/accounting/account/list', { filters: { text: '1020' } })).data.find((a: any) => a.number === '1020').id as number;
  const own = (await api('/api/company/list')).data.find((c: any) => c.isOwn);
  await api('/api/payment-profile/insert', { data: { company: { uuid: own.uuid }, account: { id: bank }, type: 1, iban: 'CH5604835012345678009' } });
  await api('/api/company/insert', { data: { name: 'Kunde Offerte AG', address: { street: 'Bahnhofstrasse', houseNumber: '7', zip: '8001', city: 'Zürich', country: { id: 1 } } } });

  // The nav entry next to Invoice.
  await page.getByRole('link', { name: 'Quotes' }).first().click();
  await expect(page.getByRole('heading', { name: 'Quotes' })).toBeVisible();
  await page.getByRole('link', { name: 'New quote' }).click();
  await choose(page, 'Customer', 'Kunde Offerte AG');
  await expect(page.getByLabel('Valid until')).toBeVisible();
  await page.getByLabel('Description').fill('Website relaunch');
  await page.getByLabel('Item 1 name').fill('Konzept');
  await page.getByLabel('Item 1 quantity').fill('8');
  await page.getByLabel('Item 1 price').fill('150');
  await snap(page, 'quote-01-form');
  await page.getByRole('button', { name: 'Create quote' }).click();
  await page.waitForURL(/\/quote\/[0-9a-f-]{36}\/detail$/);
  const heading = page.getByRole('heading', { name: /Quote AN-\d{5}/ });
  await expect(heading).toBeVisible();
  // 8 × 150.00 = 1200.00 + 8.1 % = 1297.20.
  await expect(page.getByText(/Total CHF/)).toContainText(/1.297.20|1297.20/);
  await snap(page, 'quote-02-draft');

  await page.getByRole('button', { name: 'Mark as sent' }).click();
  await expect(page.getByText('Sent', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Accepted' }).click();
  await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
  await snap(page, 'quote-03-accepted');

  await page.getByRole('button', { name: 'Create invoice' }).click();
  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
  await expect(page.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  await expect(page.getByText('Konzept')).toBeVisible();
  await expect(page.getByText('Pending', { exact: true }).first()).toBeVisible();
  await snap(page, 'quote-04-invoice-detail');

  // The list, filtered by status, shows the quote with its invoice.
  await page.goto('/quote');
  await page.getByText('Accepted', { exact: true }).first().click();
  const row = page.getByRole('row').filter({ hasText: 'Kunde Offerte AG' });
  await expect(row).toContainText(/BILAN\d{6}/);
  await snap(page, 'quote-05-list');

  // A recurring invoice: quarterly, created as draft.
  await page.getByRole('link', { name: 'Recurring invoices' }).first().click();
  await expect(page.getByRole('heading', { name: 'Recurring invoices' })).toBeVisible();
  await page.getByRole('link', { name: 'New recurring invoice' }).click();
  await choose(page, 'Interval', 'Quarterly');
  await choose(page, 'Customer', 'Kunde Offerte AG');
  await page.getByLabel('Description').fill('Hosting');
  await page.getByLabel('Item 1 name').fill('Hosting Quartal');
  await page.getByLabel('Item 1 quantity').fill('1');
  await page.getByLabel('Item 1 price').fill('300');
  await snap(page, 'recurring-01-form');
  await page.getByRole('button', { name: 'Create recurring invoice' }).click();
  await page.waitForURL(/\/invoice\/recurring\/[0-9a-f-]{36}$/);
  // It starts today: the app's job runner creates the first invoice, and the next date moves on 3 months.
  const created = page.getByRole('table', { name: 'Invoices created' }).getByRole('link', { name: /BILAN\d{6}/ });
  await expect(created).toBeVisible();
  await expect(page.getByText(/Quarterly; next invoice on/)).toBeVisible();
  await snap(page, 'recurring-02-detail');
  // The invoice links back to its recurring invoice.
  await created.click();
  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
  await expect(page.getByText(/Created by the recurring invoice/)).toBeVisible();
  await expect(page.getByText('Hosting Quartal')).toBeVisible();
  await snap(page, 'recurring-03-invoice-link-back');
  await page.goto('/invoice/recurring');
  await expect(page.getByRole('row').filter({ hasText: 'Kunde Offerte AG' })).toContainText('Quarterly');
  await snap(page, 'recurring-04-list');
});
