import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { screenshotDir, shownAmount, signUpAndOnboard, snap } from './support';

/**
 * Issue #4: a customer with an address and an own QR-IBAN profile → an invoice with two lines and a
 * discount → sent → its PDF downloaded and its QR code decoded → paid → the receivable is back to
 * zero in the trial balance and the invoice is gone from Debtors. Screenshots of every page.
 */
test.describe.configure({ mode: 'serial' });

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
const jsQR: JsQr = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;
const QR_IBAN = 'CH4431999123000889012';

function decodeQr(pdfPath: string): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-e2e-pdf-'));
  execFileSync('pdftoppm', ['-r', '200', '-png', pdfPath, join(dir, 'page')]);
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.png')).sort()) {
    const png = PNG.sync.read(readFileSync(join(dir, file)));
    const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
    if (code) return new TextDecoder().decode(new Uint8Array(code.binaryData));
  }
  return null;
}

/** An access token for API set-up calls (rotates the refresh cookie inside the same browser context). */
async function apiToken(page: Page): Promise<string> {
  const response = await page.request.get('/napi/auth/refresh');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

test('invoice with a Swiss QR-bill: send, PDF, pay, books and debtors', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = `Inv ${Date.now().toString(36)}`;
  await signUpAndOnboard(page, { name, currency: 'CHF' });

  // Customer with an address, and an own QR-IBAN profile on the bank account (companies API, issue #4 §1–2).
  const token = await apiToken(page);
  const headers = { authorization: `Bearer ${token}` };
  const company = await page.request.post('/api/company/insert', {
    headers,
    data: { data: { name: 'Simon Muster AG', address: { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Seldwyla', country: { id: 1 } } } },
  });
  expect(company.status(), await company.text()).toBe(200);
  const options = (await (await page.request.get('/api/invoice/form-options', { headers })).json()) as { paymentProfiles: { account: { id: number } }[] };
  const profile = await page.request.post('/api/payment-profile/insert', {
    headers,
    data: { data: { account: { id: options.paymentProfiles[0]!.account.id }, type: 2, iban: QR_IBAN } },
  });
  expect(profile.status(), await profile.text()).toBe(200);

  // Create the invoice.
  await page.goto('/invoice');
  await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
  await snap(page, 'inv-01-list-empty');
  await page.getByRole('link', { name: 'Create Invoice' }).click();
  await expect(page.getByRole('heading', { name: 'Create Invoice' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Customer' }).click();
  await page.getByRole('option', { name: 'Simon Muster AG' }).click();
  await expect(page.getByRole('combobox', { name: 'Address' })).toHaveValue('Musterstrasse 1, 8000 Seldwyla');
  await expect(page.getByRole('combobox', { name: 'Pay to (payment profile)' })).toHaveValue(/QR-IBAN CH44 3199/);
  await page.getByLabel('Description').fill('Consulting March');
  await page.getByLabel('Item 1 name').fill('Workshop');
  await page.getByLabel('Item 1 quantity').fill('2');
  await page.getByLabel('Item 1 price').fill('120');
  await page.getByLabel('Item 1 discount', { exact: true }).fill('10');
  await page.getByRole('button', { name: 'Add line' }).click();
  await page.getByLabel('Item 2 name').fill('Travel Zürich–Genève');
  await page.getByLabel('Item 2 quantity').fill('1');
  await page.getByLabel('Item 2 price').fill('33.33');
  const totals = page.getByLabel('Totals');
  await expect(totals).toContainText('249,33');
  await expect(totals).toContainText('20,20');
  await expect(totals).toContainText('269,55');
  await snap(page, 'inv-02-add');
  await page.getByRole('button', { name: 'Create Invoice' }).click();

  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
  await expect(page.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  expect(shownAmount(await page.getByTestId('invoice-total').innerText())).toBe('269.55');
  const reference = (await page.getByTestId('payment-reference').innerText()).replace(/\s/g, '');
  expect(reference).toMatch(/^\d{27}$/);
  await snap(page, 'inv-03-detail-pending');

  // Send.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Sent', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: /invoice sent/ })).toBeVisible();
  await snap(page, 'inv-04-detail-sent');

  // Download the PDF and decode its QR code.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloadPromise;
  const pdfPath = join(mkdtempSync(join(tmpdir(), 'bilan-e2e-dl-')), 'invoice.pdf');
  await download.saveAs(pdfPath);
  const payload = decodeQr(pdfPath);
  expect(payload).not.toBeNull();
  const lines = payload!.split(/\r?\n/);
  expect(lines.slice(0, 4)).toEqual(['SPC', '0200', '1', QR_IBAN]);
  expect(lines[5]).toBe(`${name} AG`);
  expect(lines.slice(18, 20)).toEqual(['269.55', 'CHF']);
  expect(lines.slice(20, 27)).toEqual(['S', 'Simon Muster AG', 'Musterstrasse', '1', '8000', 'Seldwyla', 'CH']);
  expect(lines.slice(27, 29)).toEqual(['QRR', reference]);
  // The PDF rendered as the bank app sees it, for the screenshots folder.
  execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', pdfPath, join(screenshotDir, 'inv-05-pdf')]);

  // The posting is visible from the entry, with a link back to the invoice.
  await page.getByRole('link', { name: /invoice sent/ }).click();
  await expect(page.getByRole('link', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  await snap(page, 'inv-06-entry');
  await page.getByRole('link', { name: /Invoice BILAN\d{6}/ }).click();

  // Debtors before payment.
  await page.goto('/invoice/debtors');
  await expect(page.getByRole('row').filter({ hasText: 'Simon Muster AG' })).toBeVisible();
  await snap(page, 'inv-07-debtors-open');
  await page.goto('/invoice');
  await page.getByText('Open invoices', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Open invoices' })).toBeChecked();
  await expect(page.getByRole('row').filter({ hasText: 'Simon Muster AG' })).toBeVisible();
  await snap(page, 'inv-08-list-open');
  await page.getByRole('row').filter({ hasText: 'Simon Muster AG' }).click();

  // Mark paid.
  await page.getByRole('button', { name: 'Mark paid' }).click();
  await page.getByRole('dialog').getByLabel('Bank reference').fill('CAMT-0001');
  await page.getByRole('dialog').getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  await expect(page.getByText('Bank reference CAMT-0001')).toBeVisible();
  await snap(page, 'inv-09-detail-paid');

  // Public share link: another browser without a session sees the invoice and nothing else.
  await page.getByRole('button', { name: 'Create share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  expect(link).toMatch(/\/public\/invoice\/[A-Za-z0-9_-]+$/);
  const anonymous = await browser.newContext({ baseURL: new URL(link).origin });
  const publicPage = await anonymous.newPage();
  await publicPage.goto(link);
  await expect(publicPage.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();
  await expect(publicPage.getByText('To Simon Muster AG')).toBeVisible();
  await expect(publicPage.getByRole('link', { name: 'Open PDF' })).toBeVisible();
  await snap(publicPage, 'inv-09b-public-share');
  await anonymous.close();

  // The receivable is back to zero in the trial balance.
  await page.goto('/accounting/trial-balance');
  const receivable = page.getByRole('row').filter({ has: page.getByRole('link', { name: '1100', exact: true }) });
  await expect(receivable).toBeVisible();
  const cells = receivable.getByRole('cell');
  expect(shownAmount(await cells.nth(2).innerText())).toBe('269.55');
  expect(shownAmount(await cells.nth(3).innerText())).toBe('269.55');
  expect(shownAmount(await cells.nth(4).innerText())).toBe('0.00');
  await snap(page, 'inv-10-trial-balance');

  // Gone from Debtors.
  await page.goto('/invoice/debtors');
  await expect(page.getByText('No open invoices.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Simon Muster AG' })).toHaveCount(0);
  await snap(page, 'inv-11-debtors-empty');

  // Import page renders.
  await page.goto('/invoice/import');
  await expect(page.getByRole('heading', { name: 'Invoice Import' })).toBeVisible();
  await snap(page, 'inv-12-import');
  expect(errors).toEqual([]);
});
