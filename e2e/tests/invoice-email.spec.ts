import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { SMTPServer } from 'smtp-server';
import { startMailApp, startSmtp, stopApp, stopSmtp, type Caught } from './mail-support';
import { screenshotDir, signUpAndOnboard, snap } from './support';

/**
 * Issue 15 §1 through the screens.
 * 1. The one-command start (the suite's server, no mail server): a staff invitation waits on the
 *    Outbox page as 'not sent — no mail server configured'.
 * 2. A second app server started here with BILAN_SMTP_URL pointing at a real SMTP server on
 *    127.0.0.1 (smtp-server): a customer with a contact → an invoice → Send → 'Post and e-mail' to
 *    the contact → the message is caught by the SMTP server with the PDF attached, and the invoice's
 *    e-mail history and the Outbox show it as sent. Screenshots of every new screen.
 */
test.describe.configure({ mode: 'serial' });

const mainPort = Number(process.env.BILAN_E2E_PORT ?? 3199);
const mailPort = mainPort + 2;
const smtpPort = mainPort + 3;

/** Chooses an option of a Mantine Select named `name`. */
async function choose(page: Page, name: string, option: string | RegExp, search?: string): Promise<void> {
  const box = page.getByRole('combobox', { name });
  await box.click();
  if (search) await box.fill(search);
  await page.getByRole('option', { name: option }).first().click();
}

test('without a mail server an invitation waits in the outbox as not sent', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Outbox ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/staff');
  await page.getByLabel('E-mail').fill('new.colleague@example.ch');
  await page.getByRole('button', { name: /Invite/ }).click();
  await expect(page.getByText('new.colleague@example.ch').first()).toBeVisible();
  await page.getByRole('link', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { name: 'Outbox' })).toBeVisible();
  await expect(page.getByText('No mail server configured', { exact: true })).toBeVisible();
  const row = page.getByRole('table', { name: 'Outbox' }).getByRole('row').filter({ hasText: 'new.colleague@example.ch' });
  await expect(row).toContainText('Invitation to');
  await expect(row).toContainText('not sent — no mail server configured');
  await snap(page, 'mail-01-outbox-no-smtp');
});

test.describe('with a mail server', () => {
  const caught: Caught[] = [];
  let smtp: SMTPServer;
  let app: ChildProcess;
  let browserContext: Awaited<ReturnType<Browser['newContext']>>;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(360_000);
    smtp = await startSmtp(smtpPort, caught);
    // The person of signUpAndOnboard is platform support here, to look at the job runner's page.
    app = await startMailApp(mailPort, smtpPort, { BILAN_DEV_SUPERADMINS: 'anna.muster@example.ch' });
    browserContext = await browser.newContext({ baseURL: `http://localhost:${mailPort}`, acceptDownloads: true });
  });
  test.afterAll(async () => {
    await browserContext?.close();
    stopApp(app);
    await stopSmtp(smtp);
  });

  test('invoice → send by e-mail → caught by the SMTP server with the PDF, sent on the history and in the outbox', async () => {
    test.setTimeout(360_000);
    const page = await browserContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const name = `Mail ${Date.now().toString(36)}`;
    await signUpAndOnboard(page, { name, currency: 'CHF' });

    // The customer, with a contact person who reads French and pays within 20 days.
    await page.goto('/company');
    await page.getByRole('link', { name: 'New company' }).click();
    await page.getByLabel('Name').fill('Simon Muster SA');
    await page.getByLabel('Street').fill('Rue du Lac');
    await page.getByLabel('House number').fill('5');
    await page.getByLabel('ZIP').fill('1800');
    await page.getByLabel('City').fill('Vevey');
    await page.getByRole('button', { name: 'Create company' }).click();
    await page.waitForURL(/\/company\/[0-9a-f-]+\/general$/);
    await page.getByRole('tab', { name: 'Contacts' }).click();
    await expect(page.getByText('No contact yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByRole('textbox', { name: /^Name/ }).fill('Claire Compta');
    await page.getByLabel('E-mail').fill('not an address');
    await choose(page, 'Invoice language', 'Français');
    await page.getByLabel('Payment terms (days)').fill('20');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await expect(page.getByText('email invalid')).toBeVisible();
    await page.getByLabel('E-mail').fill('claire@simon-muster.example');
    await page.getByRole('button', { name: 'Add contact' }).click();
    const contactRow = page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: 'claire@simon-muster.example' });
    await expect(contactRow).toContainText('Français');
    await expect(contactRow).toContainText('20 days');
    await snap(page, 'mail-02-company-contacts');

    // The invoice: the contact's 20 days propose the due date.
    await page.goto('/invoice/add');
    await choose(page, 'Customer', 'Simon Muster SA');
    const dateInvoice = await page.getByLabel('Invoice date').inputValue();
    const [d, m, y] = dateInvoice.split('.').map(Number) as [number, number, number];
    const due = new Date(Date.UTC(y, m - 1, d + 20));
    const dueShown = `${String(due.getUTCDate()).padStart(2, '0')}.${String(due.getUTCMonth() + 1).padStart(2, '0')}.${due.getUTCFullYear()}`;
    await expect(page.getByLabel('Due date')).toHaveValue(dueShown);
    await page.getByLabel('Item 1 name').fill('Conseil');
    await page.getByLabel('Item 1 quantity').fill('3');
    await page.getByLabel('Item 1 price').fill('150');
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
    const refNumber = (await page.getByRole('heading', { name: /Invoice BILAN\d{6}/ }).innerText()).replace('Invoice ', '');

    // Send → Post and e-mail → the contact.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Send invoice' });
    await dialog.getByText('Post and e-mail').click();
    await dialog.getByLabel('Claire Compta <claire@simon-muster.example>').check();
    await expect(dialog.getByRole('combobox', { name: 'Language' })).toHaveValue('Français');
    await expect(dialog).toHaveCSS('opacity', '1');
    await snap(page, 'mail-03-send-dialog');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText('Sent', { exact: true })).toBeVisible();

    // The job runner delivers it: the SMTP server catches it, with the PDF attached.
    await expect.poll(() => caught.length, { timeout: 30_000 }).toBe(1);
    const [message] = caught;
    expect(message!.to).toEqual(['claire@simon-muster.example']);
    expect(message!.mail.subject).toBe(`Facture ${refNumber} de ${name} AG`);
    expect(message!.mail.text).toContain('Bonjour Claire Compta');
    expect(message!.mail.text).toMatch(new RegExp(`http://localhost:${mailPort}/public/invoice/[A-Za-z0-9_-]+`));
    const pdf = message!.mail.attachments.find((a) => a.mimeType === 'application/pdf');
    expect(pdf?.filename).toBe(`${refNumber}.pdf`);
    const pdfPath = join(mkdtempSync(join(tmpdir(), 'bilan-e2e-mail-')), 'invoice.pdf');
    writeFileSync(pdfPath, Buffer.from(pdf!.content as ArrayBuffer));
    expect(execFileSync('pdftotext', [pdfPath, '-']).toString()).toContain(refNumber);
    execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', pdfPath, join(screenshotDir, 'mail-04-attached-pdf')]);

    // The invoice's history and the outbox show it as sent.
    const history = page.getByRole('table', { name: 'E-mails' });
    await expect(history.getByRole('row').filter({ hasText: 'claire@simon-muster.example' })).toContainText('sent', { timeout: 15_000 });
    await snap(page, 'mail-05-invoice-history');
    await page.goto('/outbox');
    const row = page.getByRole('table', { name: 'Outbox' }).getByRole('row').filter({ hasText: 'claire@simon-muster.example' });
    await expect(row).toContainText(`Facture ${refNumber}`);
    await expect(row).toContainText(`${refNumber}.pdf`);
    await expect(row.getByText('sent', { exact: true })).toBeVisible();
    await expect(page.getByText('No mail server configured', { exact: true })).toHaveCount(0);
    await snap(page, 'mail-06-outbox-sent');

    // The templates on the settings page.
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Invoice e-mail' })).toBeVisible();
    await page.getByRole('tab', { name: 'Français' }).click();
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('Facture {{refNumber}} de {{sender}}');
    await page.getByRole('heading', { name: 'Invoice e-mail' }).scrollIntoViewIfNeeded();
    await snap(page, 'mail-07-settings-templates');

    // The superadmin's job runner page: the mail-delivery queue with the completed delivery.
    await page.goto('/superadmin/jobs');
    await expect(page.getByRole('heading', { name: 'Jobs', exact: true })).toBeVisible();
    const queueRow = page.getByRole('table', { name: 'Queues' }).getByRole('row').filter({ hasText: 'mail-delivery' });
    await expect(queueRow).toContainText('5 × from 60 s, doubling');
    await expect(page.getByRole('table', { name: 'Recent jobs' }).getByText('completed').first()).toBeVisible();
    await snap(page, 'mail-08-superadmin-jobs');
    expect(errors).toEqual([]);
  });
});
