/**
 * Issue 16 §1: a mailbox on a real IMAP server (dovecot on 127.0.0.1) connected from the profile →
 * the supplier's QR-bill mail appears in the inbox, its PDF prefills a bill.
 * Issue 16 §2: a user writes a support request from the top bar's Support icon (with a screenshot);
 * platform support (BILAN_DEV_SUPERADMINS, playwright.config.ts) answers it from the support queue;
 * the answer shows on the user's support page. A user without a session writes from /login/support.
 */
import { expect, test } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';
import { signUp } from './identity-support';
import { eml, supplierQrBillPdf } from './payables-support';
import { startDovecot } from '../../apps/server/test/mail-sync/dovecot';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4530000000049454e44ae426082', 'hex');

test('a support request is written, answered by platform support and shown to the user', async ({ browser }) => {
  const suffix = Date.now().toString(36);
  const userPage = await (await browser.newContext()).newPage();
  await signUp(userPage, `Hilfe ${suffix}`, `hilfe.${suffix}@example.ch`, 'Hanna Hilfe');
  await userPage.getByRole('link', { name: 'Support' }).first().click();
  await userPage.waitForURL('**/support');
  await expect(userPage.getByRole('heading', { name: 'Support', level: 1 })).toBeVisible();
  await expect(userPage.getByText('No support request yet.')).toBeVisible();
  const form = userPage.getByRole('form', { name: 'Support request' });
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(form.getByText('This field is required').first()).toBeVisible();
  await form.getByLabel('Subject').fill('Closing 2026 does not start');
  await form.getByLabel('Message').fill('The Closing page says the trial balance does not balance, but it does.');
  await userPage.locator('input[type="file"]').setInputFiles({ name: 'closing.png', mimeType: 'image/png', buffer: PNG });
  await snap(userPage, 'support-01-form');
  await form.getByRole('button', { name: 'Send request' }).click();
  const mine = userPage.getByRole('article', { name: 'Closing 2026 does not start' });
  await expect(mine).toBeVisible();
  await expect(mine.getByText('open')).toBeVisible();
  await expect(mine.getByText('Attached: closing.png')).toBeVisible();
  await snap(userPage, 'support-02-sent');

  const supportPage = await (await browser.newContext()).newPage();
  await signUp(supportPage, `Support Desk ${suffix}`, 'support.e2e@example.ch', 'Sue Port');
  await supportPage.goto('/superadmin');
  await supportPage.getByRole('link', { name: 'Support queue' }).click();
  await supportPage.waitForURL('**/superadmin/support');
  const queued = supportPage.getByRole('article', { name: 'Closing 2026 does not start' });
  await expect(queued).toContainText(`hilfe.${suffix}@example.ch`);
  await expect(queued.getByRole('button', { name: /closing\.png/ })).toBeVisible();
  await queued.getByLabel('Answer').fill('The 2026 closing needs the year locked first: Accounting → Lock.');
  await snap(supportPage, 'support-03-queue');
  await queued.getByRole('button', { name: 'Send answer' }).click();
  await expect(supportPage.getByText(`Answer e-mailed to hilfe.${suffix}@example.ch`)).toBeVisible();
  // Answered requests leave the 'Open' filter.
  await supportPage.getByText('Answered', { exact: true }).click();
  const answered = supportPage.getByRole('article', { name: 'Closing 2026 does not start' });
  await expect(answered.getByText('answered')).toBeVisible();
  await expect(answered.getByText('Bilan support', { exact: false })).toBeVisible();
  await snap(supportPage, 'support-04-answered');

  await userPage.reload();
  await expect(mine.getByText('answered')).toBeVisible();
  await expect(mine.getByText('The 2026 closing needs the year locked first')).toBeVisible();
  await snap(userPage, 'support-05-user-sees-answer');

  await answered.getByRole('button', { name: 'Close' }).click();
  await supportPage.getByText('Closed', { exact: true }).click();
  await expect(supportPage.getByRole('article', { name: 'Closing 2026 does not start' }).getByText('closed')).toBeVisible();

  // Without a session: the sign-in page's support form.
  const anonymous = await (await browser.newContext()).newPage();
  await anonymous.goto('/login/support');
  await anonymous.getByLabel('E-mail').fill(`hilfe.${suffix}@example.ch`);
  await anonymous.getByLabel('Subject').fill('Blocked after wrong codes');
  await anonymous.getByLabel('Message').fill('My account is blocked.');
  await anonymous.getByRole('button', { name: 'Send request' }).click();
  await expect(anonymous.getByText('Thank you. Our support team will answer you by e-mail.')).toBeVisible();
  await snap(anonymous, 'support-06-login-support');
  await supportPage.getByText('Open', { exact: true }).click();
  await expect(supportPage.getByRole('article', { name: 'Blocked after wrong codes' })).toContainText('written at sign-in');
});

test('a connected mailbox brings the supplier QR-bill mail into the inbox, prefilled', async ({ page, browser }) => {
  const imap = await startDovecot();
  try {
    const suffix = Date.now().toString(36);
    const buyer = `Sync Buyer ${suffix}`;
    const supplier = `Sync Supplier ${suffix}`;
    await signUpAndOnboard(page, { name: buyer, currency: 'CHF' });
    const { pdf, reference } = await supplierQrBillPdf(browser, buyer, supplier);
    imap.createFolder('Processed');
    imap.deliver(eml(`"${supplier} AG" <rechnungen@supplier.example>`, 'Rechnung Dezember', 'Im Anhang unsere Rechnung.', [{ name: 'Rechnung-Dezember.pdf', type: 'application/pdf', bytes: pdf }], `<dez-${suffix}@supplier.example>`));

    await page.goto('/profile');
    const section = page.getByRole('region', { name: 'Mail Sync' });
    await expect(section.getByText('No mail sync')).toBeVisible();
    await section.getByRole('button', { name: 'Connect a mailbox' }).click();
    const form = section.getByRole('form', { name: 'Connect a mailbox' });
    await form.getByLabel('E-mail').fill('kreditoren@buyer.example');
    await form.getByLabel('IMAP server').fill(imap.host);
    await form.getByLabel('Port').fill(String(imap.port));
    await form.getByLabel('TLS (IMAPS)').uncheck();
    await form.getByLabel('User').fill(imap.user);
    await form.getByLabel('App password').fill('wrong');
    await form.getByRole('button', { name: 'Connect' }).click();
    await expect(form.getByText('the mail server refused the user or app password')).toBeVisible();
    await form.getByLabel('App password').fill(imap.password);
    await form.getByLabel('Move processed mails to').fill('Processed');
    await snap(page, 'mail-sync-01-connect');
    await form.getByRole('button', { name: 'Connect' }).click();
    const table = section.getByRole('table', { name: 'Mail sync' });
    await expect(table).toContainText('kreditoren@buyer.example');
    // The job runner polls the new mailbox at once; "Sync now" polls it too (nothing is taken twice).
    await table.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByText(/new mail\(s\) in the inbox/)).toBeVisible({ timeout: 30_000 });
    await expect(table).not.toContainText('not yet');
    await snap(page, 'mail-sync-02-connected');

    await page.goto('/inbox');
    const pending = page.getByRole('table', { name: 'Pending mails' });
    await expect(pending).toContainText('Rechnung Dezember');
    await snap(page, 'mail-sync-03-inbox');
    await pending.getByRole('link', { name: 'Rechnung-Dezember.pdf' }).click();
    await expect(page.getByLabel('QR-bill read')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('QR-bill read')).toContainText(`${supplier} AG`);
    await expect(page.getByLabel('Reference (QR or RF…)')).toHaveValue(reference.replace(/\s/g, ''));
    await snap(page, 'mail-sync-04-prefilled');
  } finally {
    await imap.close();
  }
});
