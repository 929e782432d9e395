/**
 * Issue 15's whole sales cycle in Chromium, on an app server that e-mails through a real SMTP server
 * on 127.0.0.1: the letterhead (logo and contact block) set in Settings → a quote with its PDF →
 * sent → accepted → 'Create invoice' → the invoice dated back and sent by e-mail (caught with its
 * PDF, QR code decoded) → overdue → dunning run level 1 e-mailed (caught with the letter) → partial
 * credit note → the rest paid. The PDFs are rendered with pdftoppm into e2e/screenshots.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { SMTPServer } from 'smtp-server';
import { startMailApp, startSmtp, stopApp, stopSmtp, type Caught } from './mail-support';
import { apiFor } from './payables-support';
import { decodeQr, screenshotDir, shownAmount, signUpAndOnboard, snap } from './support';

const mainPort = Number(process.env.BILAN_E2E_PORT ?? 3199);
const appPort = mainPort + 4;
const smtpPort = mainPort + 5;

async function choose(page: Page, scope: Page | Locator, name: string, option: string | RegExp): Promise<void> {
  await scope.getByRole('combobox', { name }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Saves a download (or an e-mail attachment) as a PDF file, renders its first page for a look, and returns its path and text. */
function keepPdf(bytes: Buffer, shot: string): { path: string; text: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'bilan-e2e-cycle-')), `${shot}.pdf`);
  writeFileSync(path, bytes);
  execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', path, join(screenshotDir, shot)]);
  return { path, text: execFileSync('pdftotext', ['-layout', path, '-']).toString() };
}

test.describe('the sales cycle with a mail server', () => {
  const caught: Caught[] = [];
  let smtp: SMTPServer;
  let app: ChildProcess;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    smtp = await startSmtp(smtpPort, caught);
    app = await startMailApp(appPort, smtpPort);
  });
  test.afterAll(async () => {
    stopApp(app);
    await stopSmtp(smtp);
  });

  test('letterhead → quote → accepted → invoice e-mailed → overdue → reminder e-mailed → partial credit note → paid', async ({ browser }) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ baseURL: `http://localhost:${appPort}`, acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const name = `Zyklus ${Date.now().toString(36)}`;
    await signUpAndOnboard(page, { name, currency: 'CHF' });
    const { post } = await apiFor(page);
    const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
    const balanceOf = async (number: string) =>
      ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00') as string;

    // 1. The letterhead: a logo (drawn here and screenshotted as a PNG) and the contact block.
    const drawing = await context.newPage();
    await drawing.setContent(
      '<div id="logo" style="display:inline-block;padding:10px 18px;background:#1c7ed6;color:#fff;font:bold 30px sans-serif;border-radius:8px">Zyklus AG</div>',
    );
    const logo = await drawing.locator('#logo').screenshot();
    await drawing.close();
    await page.goto('/settings');
    const letterhead = page.getByRole('form', { name: 'Letterhead' });
    await expect(letterhead.getByText('No logo')).toBeVisible();
    await letterhead.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await expect(letterhead.getByRole('img', { name: 'Logo' })).toBeVisible();
    await letterhead.getByLabel('E-mail').fill('not an address');
    await letterhead.getByRole('button', { name: 'Save letterhead' }).click();
    await expect(letterhead.getByText('not an e-mail address')).toBeVisible();
    await letterhead.getByLabel('Phone').fill('+41 44 555 66 77');
    await letterhead.getByLabel('E-mail').fill('buchhaltung@zyklus.example');
    await letterhead.getByLabel('Website').fill('www.zyklus.example');
    await letterhead.getByRole('button', { name: 'Save letterhead' }).click();
    await expect(page.getByText('Letterhead saved: new documents print it.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Letterhead' }).getByRole('img', { name: 'Logo' })).toBeVisible();
    await snap(page, 'cycle-01-letterhead');

    // The customer with the contact the invoice and the reminder go to.
    const customer = await api('/api/company/insert', { data: { name: 'Kunde Zyklus AG', address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } } });
    await api('/api/company/contact/insert', { company: { uuid: customer.uuid }, name: 'Petra Kunde', email: 'petra@kunde.example' });

    // 2. The quote: made in the form, its PDF with the letterhead, sent, accepted, turned into an invoice.
    await page.getByRole('link', { name: 'Quotes' }).first().click();
    await page.getByRole('link', { name: 'New quote' }).click();
    await choose(page, page, 'Customer', 'Kunde Zyklus AG');
    await page.getByLabel('Description').fill('Buchhaltung 2026');
    await page.getByLabel('Item 1 name').fill('Jahresabschluss');
    await page.getByLabel('Item 1 quantity').fill('10');
    await page.getByLabel('Item 1 price').fill('150');
    await page.getByRole('button', { name: 'Create quote' }).click();
    await page.waitForURL(/\/quote\/[0-9a-f-]{36}\/detail$/);
    const quoteNumber = /AN-\d{5}/.exec(await page.getByRole('heading', { name: /Quote AN-\d{5}/ }).innerText())![0];
    const quoteDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF', exact: true }).click();
    const quotePdf = keepPdf(readFileSync((await (await quoteDownload).path())!), 'cycle-02-quote-pdf');
    expect(quotePdf.text).toContain(`Offerte ${quoteNumber}`);
    expect(quotePdf.text).toContain('+41 44 555 66 77');
    expect(quotePdf.text).toContain('buchhaltung@zyklus.example');
    expect(quotePdf.text).not.toContain('Zahlteil');
    await page.getByRole('button', { name: 'Mark as sent' }).click();
    await expect(page.getByText('Sent', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Accepted' }).click();
    await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
    await snap(page, 'cycle-03-quote-accepted');
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
    const invoiceUrl = page.url();
    const refNumber = /BILAN\d{6}/.exec(await page.getByRole('heading', { name: /Invoice BILAN\d{6}/ }).innerText())![0];
    await expect(page.getByText('Jahresabschluss')).toBeVisible();

    // 3. The work was invoiced in September: dated back while pending, then sent by e-mail.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editForm = page.getByRole('form', { name: /Edit invoice BILAN\d{6}/ });
    for (const [label, shown] of [['Invoice date', '01.09.2026'], ['Due date', '01.10.2026']] as const) {
      await editForm.getByLabel(label).fill(shown);
      await editForm.getByLabel(label).press('Tab');
    }
    await editForm.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
    // 10 × 150.00 = 1500.00 + 8.1 % = 1621.50.
    expect(shownAmount(await page.getByTestId('invoice-total').innerText())).toBe('1621.50');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const send = page.getByRole('dialog', { name: 'Send invoice' });
    await send.getByText('Post and e-mail').click();
    await send.getByLabel('Petra Kunde <petra@kunde.example>').check();
    await send.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Sent', { exact: true })).toBeVisible();
    await expect.poll(() => caught.length, { timeout: 30_000 }).toBe(1);
    const invoiceMail = caught[0]!;
    expect(invoiceMail.to).toEqual(['petra@kunde.example']);
    const invoiceAttachment = invoiceMail.mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    const invoicePdf = keepPdf(Buffer.from(invoiceAttachment.content as ArrayBuffer), 'cycle-04-invoice-pdf');
    expect(invoicePdf.text).toContain(refNumber);
    expect(invoicePdf.text).toContain('www.zyklus.example');
    const payload = decodeQr(invoicePdf.path)!.split(/\r?\n/);
    expect(payload[0]).toBe('SPC');
    expect(payload[18]).toBe('1621.50');
    await snap(page, 'cycle-05-invoice-sent');

    // 4. Overdue: the dunning run offers level 1 and e-mails the letter to the same contact.
    await page.getByRole('link', { name: 'Dunning' }).click();
    const run = page.getByRole('table', { name: 'Dunning run' });
    const row = run.getByRole('row').filter({ hasText: 'Kunde Zyklus AG' });
    await expect(row).toContainText('Zahlungserinnerung');
    await expect(row.getByRole('checkbox')).toBeChecked();
    await snap(page, 'cycle-06-dunning-run');
    await page.getByRole('button', { name: /Send 1 reminder$/ }).click();
    await expect(page.getByText('Reminders sent').first()).toBeVisible();
    await expect.poll(() => caught.length, { timeout: 30_000 }).toBe(2);
    const reminderMail = caught[1]!;
    expect(reminderMail.to).toEqual(['petra@kunde.example']);
    const letter = keepPdf(Buffer.from(reminderMail.mail.attachments.find((a) => a.mimeType === 'application/pdf')!.content as ArrayBuffer), 'cycle-07-reminder-pdf');
    expect(letter.text).toContain(`Zahlungserinnerung – ${refNumber}`);
    expect(letter.text).toContain('+41 44 555 66 77');
    expect(decodeQr(letter.path)!.split(/\r?\n/)[18]).toBe('1621.50');

    // 5. Three days were too many: a partial credit note, then the rest is paid.
    await page.goto(invoiceUrl);
    await expect(page.getByRole('table', { name: 'Reminders' })).toContainText('Zahlungserinnerung');
    await page.getByRole('button', { name: 'Credit note' }).click();
    const credit = page.getByRole('dialog', { name: /Credit note for/ });
    await credit.getByLabel('Reason').fill('3 Tage zu viel verrechnet');
    await credit.getByLabel('Quantity to credit of Jahresabschluss').fill('3');
    await credit.getByRole('button', { name: 'Create credit note' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // 450.00 + 36.45 VAT = 486.45 credited; 1135.05 open.
    await expect(page.getByRole('table', { name: 'Credit notes' })).toContainText('486,45');
    await snap(page, 'cycle-08-credit-note');
    await page.getByRole('button', { name: 'Mark paid' }).click();
    const pay = page.getByRole('dialog', { name: 'Mark paid' });
    await expect(pay.getByLabel('Amount received (CHF)')).toHaveValue('1135,05');
    await pay.getByRole('button', { name: 'Mark paid' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
    expect(await balanceOf('1100')).toBe('0.00');
    await snap(page, 'cycle-09-paid');
    expect(errors).toEqual([]);
    await context.close();
  });
});
