/**
 * Issue #5 §2: a supplier's QR-bill PDF, made by the invoicing code of another workplace, dropped
 * into the inbox → the page reads its QR code in the browser (pdf.js + zxing-wasm) → a bill prefilled
 * with the creditor, QR-IBAN, amount, currency and reference → confirmed: the supplier and its
 * payment profile are created and the bill holds the QR-bill's data.
 */
import { expect, test, type Page } from '@playwright/test';
import { photoOf, renderPage, SUPPLIER_QR_IBAN as QR_IBAN, supplierQrBillPdf, withSecondQrCode } from './payables-support';
import { signUpAndOnboard, snap } from './support';


async function apiFor(page: Page) {
  const refreshed = await page.request.get('/napi/auth/refresh');
  expect(refreshed.ok()).toBe(true);
  const headers = { authorization: `Bearer ${((await refreshed.json()) as { token: string }).token}` };
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(path, { headers, data });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return response;
  };
  const get = (path: string) => page.request.get(path, { headers });
  return { post, get };
}

test('QR-bill PDF from another workplace → prefilled bill → confirmed', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A CSP refusal (pdf.js worker under script-src 'self') shows only on the console.
    if (message.type() === 'error' && /Content Security Policy|worker/i.test(message.text())) errors.push(message.text());
  });
  const suffix = Date.now().toString(36);
  const buyer = `Buyer ${suffix}`;
  const supplier = `Supplier ${suffix}`;
  await signUpAndOnboard(page, { name: buyer, currency: 'CHF' });

  // The supplier's workplace issues a QR-bill invoice to the buyer (invoicing API, issue #4).
  const { pdf, reference } = await supplierQrBillPdf(browser, buyer, supplier);

  // The buyer drops the PDF into the inbox.
  await page.goto('/inbox');
  await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
  await page.getByLabel('Choose files').setInputFiles({ name: 'supplier-invoice.pdf', mimeType: 'application/pdf', buffer: pdf });
  await page.getByRole('link', { name: 'supplier-invoice.pdf' }).click();
  const read = page.getByLabel('QR-bill read');
  await expect(read).toBeVisible({ timeout: 30_000 });
  await expect(read).toContainText(`${supplier} AG`);
  await expect(read).toContainText('CH44 3199 9123 0008 8901 2 (QR-IBAN)');
  await expect(read).toContainText('New supplier');
  await expect(page.getByLabel('Amount')).toHaveValue(/^269[.,]55$/);
  await expect(page.getByLabel('Reference (QR or RF…)')).toHaveValue(reference.replace(/\s/g, ''));
  // The supplier's Swico S1 billing information: invoice number and date, 30 days net, 8.1 % VAT.
  await expect(read).toContainText(/Invoice BILAN\d{6} · of 03\.11\.2025 · VAT 8\.1 %/);
  await expect(page.getByLabel('Bill date')).toHaveValue('03.11.2025');
  await expect(page.getByLabel('Due date')).toHaveValue('03.12.2025');
  await expect(page.getByLabel('of which VAT')).toHaveValue('20,20');
  await expect(page.getByLabel('Description')).toHaveValue(/^Invoice BILAN\d{6}$/);
  await snap(page, 'inbox-qr-01-prefilled');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');
  await expect(page.getByRole('row').filter({ hasText: `${supplier} AG` })).toBeVisible();
  await snap(page, 'inbox-qr-02-bills');

  // The bill holds the QR-bill's amount, IBAN and reference; the file is attached.
  const mine = await apiFor(page);
  const bills = (await (await mine.post('/api/payable/list', { filters: {}, page: 1, pageSize: 50 })).json()) as {
    data: { amount: string; currency: string; referenceNumber: string; company: { name: string }; companyFinance: { iban: string; type: number } }[];
  };
  expect(bills.data).toHaveLength(1);
  const bill = bills.data[0]!;
  expect(bill.amount).toBe('269.55');
  expect(bill.currency).toBe('CHF');
  expect(bill.company.name).toBe(`${supplier} AG`);
  expect(bill.companyFinance.iban.replace(/\s/g, '')).toBe(QR_IBAN);
  expect(bill.companyFinance.type).toBe(2);
  expect(bill.referenceNumber.replace(/\s/g, '')).toBe(reference.replace(/\s/g, ''));
  await page.goto('/inbox');
  await expect(page.getByText(/Bill \d+/)).toBeVisible();
  await snap(page, 'inbox-qr-03-inbox');
  expect(errors).toEqual([]);
});

/**
 * Issue #5 §2 "from a PDF or image": photos and scans of the same QR-bill — turned by 15° and
 * shrunk like a phone photo (PNG), a JPEG scan, and a page with a second QR code in the letterhead
 * (a web address) — each prefill the bill: ZXing finds every code and the SPC one is taken. In the
 * comparison of decision 010, jsQR (the decoder used before) read nothing from such a turned photo
 * and answered the web address for such a two-code page.
 */
test('QR-bill photos: turned PNG, JPEG scan, page with a second QR code → prefilled bill', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|wasm|WebAssembly/i.test(message.text())) errors.push(message.text());
  });
  const suffix = Date.now().toString(36);
  const buyer = `Photo Buyer ${suffix}`;
  await signUpAndOnboard(page, { name: buyer, currency: 'CHF' });
  const { pdf, reference, amount } = await supplierQrBillPdf(browser, buyer, `Photo Supplier ${suffix}`);

  const images = [
    { name: 'phone-photo.png', mimeType: 'image/png', buffer: photoOf(renderPage(pdf, 120), 15, 0.7), shot: 'inbox-photo-01-turned-png' },
    { name: 'scan.jpg', mimeType: 'image/jpeg', buffer: renderPage(pdf, 110, 'jpeg', 70), shot: 'inbox-photo-02-jpeg' },
    {
      name: 'two-codes.png',
      mimeType: 'image/png',
      buffer: await withSecondQrCode(renderPage(pdf, 150), 'https://www.example.ch/rechnung/online-bezahlen', 900, 60, 300),
      shot: 'inbox-photo-03-two-codes',
    },
  ];
  for (const image of images) {
    await page.goto('/inbox');
    await page.getByLabel('Choose files').setInputFiles({ name: image.name, mimeType: image.mimeType, buffer: image.buffer });
    await page.getByRole('link', { name: image.name }).click();
    await expect(page.getByRole('heading', { name: `Bill from ${image.name}` })).toBeVisible();
    const read = page.getByLabel('QR-bill read');
    await expect(read, image.name).toBeVisible({ timeout: 30_000 });
    await expect(read).toContainText('CH44 3199 9123 0008 8901 2 (QR-IBAN)');
    // The input shows the user's decimal separator (fr-CH: a comma).
    await expect(page.getByLabel('Amount')).toHaveValue(amount.replace('.', ','));
    await expect(page.getByLabel('Reference (QR or RF…)')).toHaveValue(reference);
    await snap(page, image.shot);
  }
  expect(errors).toEqual([]);
});
