/**
 * Issue #5 §2 mails: two forwarded supplier mails (.eml) dropped into the inbox at once → pending
 * mails with their attachments (a QR-bill PDF made by another workplace's invoicing, and a photo)
 * → the mail page lists them by status → one mail's PDF opened as a prefilled bill and saved: the
 * mail is processed → the other mail refused. Screenshots of the inbox, mail list and mail page.
 */
import { expect, test } from '@playwright/test';
import { eml, renderPage, supplierQrBillPdf } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('forwarded .eml mails → pending mails → bill from an attachment (processed), refuse the other', async ({ page, browser }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const suffix = Date.now().toString(36);
  const buyer = `Mail Buyer ${suffix}`;
  const supplier = `Mail Supplier ${suffix}`;
  await signUpAndOnboard(page, { name: buyer, currency: 'CHF' });
  const { pdf, reference } = await supplierQrBillPdf(browser, buyer, supplier);

  const invoiceMail = eml(
    `"${supplier} AG" <rechnungen@supplier.example>`,
    'Rechnung November – Beratung',
    'Grüezi\r\n\r\nIm Anhang unsere Rechnung für November.\r\n\r\nFreundliche Grüsse',
    [{ name: 'Rechnung-November.pdf', type: 'application/pdf', bytes: pdf }],
    `<november-${suffix}@supplier.example>`,
  );
  const photoMail = eml('kasse@papeterie.example', 'Quittung Papeterie', 'Anbei die Quittung.', [{ name: 'quittung.jpg', type: 'image/jpeg', bytes: renderPage(pdf, 60, 'jpeg', 60) }]);

  await page.goto('/inbox');
  await expect(page.getByText('The inbox is empty.')).toBeVisible();
  await page.getByLabel('Choose files').setInputFiles([
    { name: 'rechnung.eml', mimeType: 'message/rfc822', buffer: invoiceMail },
    { name: 'quittung.eml', mimeType: 'message/rfc822', buffer: photoMail },
  ]);
  await expect(page.getByText(/^Mail \d+ with 1 attachment$/)).toHaveCount(2);
  const pending = page.getByRole('table', { name: 'Pending mails' });
  await expect(pending.getByRole('row')).toHaveCount(3);
  await expect(pending).toContainText('Rechnung November – Beratung');
  await expect(pending.getByRole('link', { name: 'Rechnung-November.pdf' })).toBeVisible();
  await expect(pending.getByRole('link', { name: 'quittung.jpg' })).toBeVisible();
  await snap(page, 'mail-01-inbox');

  // The mail page: pending first, a mail opened shows sender, date, text and attachments.
  await page.getByRole('link', { name: 'All mail' }).click();
  await expect(page.getByRole('heading', { name: 'Mail', exact: true })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(3);
  await snap(page, 'mail-02-list-pending');
  await page.getByRole('link', { name: 'Rechnung November – Beratung' }).click();
  await expect(page.getByRole('heading', { name: 'Rechnung November – Beratung' })).toBeVisible();
  await expect(page.getByText(`${supplier} AG <rechnungen@supplier.example>`)).toBeVisible();
  await expect(page.getByText('03.11.2025')).toBeVisible();
  await expect(page.getByLabel('Mail text')).toContainText('Im Anhang unsere Rechnung für November.');
  await expect(page.getByText('Pending', { exact: true })).toBeVisible();
  await snap(page, 'mail-03-detail-pending');

  // Its PDF as a bill draft: the QR-bill prefills it; saving enters the bill and processes the mail.
  await page.getByRole('link', { name: 'Open as bill draft' }).click();
  await expect(page.getByText(/Attachment of mail \d+/)).toBeVisible();
  await expect(page.getByLabel('QR-bill read')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Reference (QR or RF…)')).toHaveValue(reference);
  await snap(page, 'mail-04-bill-draft');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');
  await expect(page.getByRole('row').filter({ hasText: `${supplier} AG` })).toBeVisible();

  await page.goto('/inbox/mail');
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.locator('label').filter({ hasText: /^Processed$/ }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Rechnung November – Beratung' })).toContainText('Processed');
  await expect(page.getByRole('row').filter({ hasText: 'Rechnung November – Beratung' })).toContainText(/Bill \d+/);
  await snap(page, 'mail-05-list-processed');

  // The receipt photo is no supplier bill to pay: refused.
  await page.locator('label').filter({ hasText: /^Pending$/ }).click();
  await page.getByRole('link', { name: 'Quittung Papeterie' }).click();
  await expect(page.getByRole('link', { name: 'quittung.jpg' })).toBeVisible();
  await page.getByRole('button', { name: 'Refuse' }).click();
  await expect(page.getByText('Refused', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark processed' })).toHaveCount(0);
  await snap(page, 'mail-06-detail-refused');

  await page.goto('/inbox');
  await expect(page.getByRole('table', { name: 'Pending mails' })).toHaveCount(0);
  await expect(page.getByText('The inbox is empty.')).toBeVisible();
  expect(errors).toEqual([]);
});
