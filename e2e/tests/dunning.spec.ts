/**
 * The dunning run in Chromium (issue 15 §3, decision 030): an overdue sent invoice (269.55 … here
 * 1621.50, due 2025-10-31) is listed on /invoice/dunning at level 1 (Zahlungserinnerung, due), sent
 * for print; its letter PDF downloads with a QR-bill; the invoice detail shows the reminder history.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { screenshotDir, signUpAndOnboard, snap } from './support';

test('overdue invoice → dunning run level 1 → letter PDF → history on the detail', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Mahnwesen ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();

  const address = { street: 'Bahnhofstrasse', houseNumber: '7', zip: '8001', city: 'Zürich', country: { id: 1 } };
  const invoice = await customerInvoice(
    api,
    { name: 'Kunde Mahnung AG', address },
    { vat: '0.081', dateInvoice: '2025-10-01', dateDue: '2025-10-31', items: [{ name: 'Beratung', amount: '10', price: '100' }, { name: 'Lizenz', amount: '1', price: '500' }] },
  );
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });

  await page.goto('/');
  await page.getByRole('link', { name: 'Dunning' }).click();
  await expect(page).toHaveURL(/\/invoice\/dunning$/);
  const table = page.getByRole('table', { name: 'Dunning run' });
  const row = table.getByRole('row').filter({ hasText: 'Kunde Mahnung AG' });
  await expect(row).toContainText('Zahlungserinnerung');
  await expect(row).toContainText('due');
  await expect(row.getByRole('checkbox')).toBeChecked();
  await expect(page.getByRole('heading', { name: 'Reminder levels' }).or(page.getByText('Reminder levels'))).toBeVisible();
  await snap(page, 'dunning-01-run');

  await page.getByRole('button', { name: /Send 1 reminder$/ }).click();
  const sent = page.getByRole('alert').filter({ hasText: 'Reminders sent' }).or(page.getByText('Reminders sent'));
  await expect(sent.first()).toBeVisible();
  await snap(page, 'dunning-02-sent');

  // The letter: downloaded, rendered with pdftoppm for a look.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Letter PDF' }).first().click();
  const file = await download;
  const dir = mkdtempSync(join(tmpdir(), 'bilan-dunning-'));
  const pdfPath = join(dir, 'letter.pdf');
  await file.saveAs(pdfPath);
  const text = execFileSync('pdftotext', ['-layout', pdfPath, '-']).toString();
  expect(text).toContain('Zahlungserinnerung');
  expect(text).toContain('Zahlteil');
  execFileSync('pdftoppm', ['-r', '60', '-png', '-singlefile', pdfPath, join(screenshotDir, 'dunning-03-letter')]);
  expect(readdirSync(screenshotDir).some((name) => name.startsWith('dunning-03-letter'))).toBe(true);

  // The run no longer offers level 1; the detail shows the history.
  await page.reload();
  await expect(row).toContainText('1');
  await page.goto(`/invoice/${invoice.uuid}/detail`);
  const history = page.getByRole('table', { name: 'Reminders' });
  await expect(history).toContainText('Zahlungserinnerung');
  await expect(history).toContainText('for print');
  await expect(history.getByRole('button', { name: 'Letter PDF' })).toBeVisible();
  await snap(page, 'dunning-04-invoice-history');
});
