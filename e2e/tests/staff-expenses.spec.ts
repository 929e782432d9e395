/**
 * Issue 16 §4 "Staff expenses": an expense is a claim of an employee, not a supplier. A user enters
 * one by hand with its receipt for a new employee (name and IBAN), approves it, reads the typed
 * description in the journal, sees what is owed to staff on the creditors page, adds a second
 * expense for the same employee from the list, pays both in a payment run (pain.001 to the
 * employee's IBAN) and a third one by hand with 'Pay'.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

const ANNA_IBAN = 'CH5604835012345678009';
const receiptPdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function chooseOption(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

test('a staff expense with its receipt: employee, journal text, owed to staff, paid in a run and by hand', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpAndOnboard(page, { name: `Spesen ${Date.now().toString(36)}`, currency: 'CHF' });

  // 1. The expense form speaks of an employee, a receipt and a description — no supplier.
  await page.goto('/bill');
  await page.getByRole('link', { name: 'Add expense' }).click();
  await expect(page.getByRole('heading', { name: 'Add expense' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Employee' })).toBeVisible();
  await expect(page.getByText('Supplier', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Message to the supplier')).toHaveCount(0);
  await expect(page.getByLabel('Payment note')).toBeVisible();
  await page.getByRole('button', { name: 'Save expense' }).click();
  await expect(page.getByText('choose the employee, or add a new one with name and IBAN')).toBeVisible();
  await expect(page.getByText('an expense needs a description (what was bought): it becomes the journal text')).toBeVisible();
  await snap(page, 'staff-expenses-01-form-refused');

  // 2. A new employee with IBAN, the amount with its VAT, the description and the receipt.
  await page.getByRole('button', { name: 'New employee (name and IBAN)' }).click();
  await page.getByRole('textbox', { name: 'Employee' }).fill('Anna Muster');
  await page.getByRole('textbox', { name: 'IBAN' }).fill('CH56 0483 5012 3456 7800 8');
  await page.getByLabel('Amount').fill('64.80');
  await page.getByLabel('of which VAT').fill('4.86');
  await page.getByLabel('Description').fill('Train ticket Bern');
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Receipt', { exact: true }).click();
  await (await chooser).setFiles({ name: 'sbb-ticket.pdf', mimeType: 'application/pdf', buffer: receiptPdf });
  await page.getByRole('button', { name: 'Save expense' }).click();
  await expect(page.getByText('The IBAN is wrongly formatted')).toBeVisible();
  await page.getByRole('textbox', { name: 'IBAN' }).fill('CH56 0483 5012 3456 7800 9');
  await snap(page, 'staff-expenses-02-form-filled');
  await page.getByRole('button', { name: 'Save expense' }).click();
  await page.waitForURL((url) => url.pathname === '/bill');
  const row = page.getByRole('row').filter({ hasText: 'Train ticket Bern' });
  await expect(row).toContainText('Expense');
  await expect(row).toContainText('Anna Muster');
  await snap(page, 'staff-expenses-03-list');

  // 3. The detail in its own words, the receipt beside it; approving books the text to 2250.
  await row.getByRole('link', { name: /^Bill \d+$/ }).click();
  const heading = page.getByRole('heading', { name: /^Expense \d+ · Anna Muster$/ });
  await expect(heading).toBeVisible();
  const id = (await heading.innerText()).match(/^Expense (\d+)/)![1]!;
  await expect(page.getByText('Employee', { exact: true })).toBeVisible();
  await expect(page.getByText('CH56 0483 5012 3456 7800 9')).toBeVisible();
  await expect(page.getByLabel('Receipt')).toContainText('sbb-ticket.pdf');
  await page.getByRole('button', { name: 'Approve' }).click();
  const postings = page.getByRole('table', { name: 'Postings' });
  await expect(postings).toContainText(`Expense ${id} · Anna Muster · Train ticket Bern`);
  await expect(postings).toContainText('2250');
  await snap(page, 'staff-expenses-04-detail-approved');

  // 4. The journal carries the typed description.
  await page.goto('/accounting/journal');
  await expect(page.getByText(`Expense ${id} · Anna Muster · Train ticket Bern`).first()).toBeVisible();
  await snap(page, 'staff-expenses-05-journal');

  // 5. Creditors: owed to staff, per employee, apart from the suppliers, agreeing with 2250.
  await page.goto('/bill/creditors');
  const staff = page.getByRole('table', { name: 'Owed to staff' });
  await expect(staff.getByRole('row').filter({ hasText: 'Anna Muster' })).toContainText(/64[.,]80/);
  await expect(page.getByText(/agrees with the open expenses/)).toBeVisible();
  await expect(page.getByText('No open bills.')).toBeVisible();
  await snap(page, 'staff-expenses-06-creditors');

  // 6. A second expense for Anna, chosen among the staff: her IBAN comes with her.
  await page.goto('/bill/add?type=expense');
  await chooseOption(page, 'Employee', 'Anna Muster');
  await expect(page.getByRole('combobox', { name: 'Pay to (IBAN)' })).toHaveValue('CH56 0483 5012 3456 7800 9');
  await page.getByLabel('Amount').fill('12.50');
  await page.getByLabel('Description').fill('Parking Basel');
  await page.getByLabel('Payment note').fill('Spesen November');
  await snap(page, 'staff-expenses-07-second-expense');
  await page.getByRole('button', { name: 'Save expense' }).click();
  await page.waitForURL((url) => url.pathname === '/bill');
  await page.getByRole('row').filter({ hasText: 'Parking Basel' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Parking Basel' }).getByText('Approved')).toBeVisible();
  await page.goto('/bill/creditors');
  await expect(staff.getByRole('row').filter({ hasText: 'Anna Muster' })).toContainText(/77[.,]30/);

  // 7. Both in one payment run: the pain.001 pays Anna's IBAN, the note or else the description as text.
  await page.goto('/bill?kind=expense');
  await expect(page.getByRole('checkbox', { name: /Select bill/ })).toHaveCount(2);
  for (const box of await page.getByRole('checkbox', { name: /Select bill/ }).all()) await box.check();
  await page.getByRole('button', { name: 'Pay selected (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay 2 selected expenses' });
  await expect(dialog).toContainText(`Expense ${id} · Anna Muster · Train ticket Bern`);
  await expect(dialog).toHaveCSS('opacity', '1');
  await snap(page, 'staff-expenses-08-pay-selected');
  await dialog.getByRole('button', { name: 'Create transaction group' }).click();
  await page.waitForURL('**/transaction-group/*/detail');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download pain.001' }).click();
  const xml = readFileSync((await (await download).path())!, 'utf8');
  expect(xml).toContain('<NbOfTxs>2</NbOfTxs>');
  expect(xml).toContain('<CtrlSum>77.30</CtrlSum>');
  expect(xml.match(new RegExp(`<IBAN>${ANNA_IBAN}</IBAN>`, 'g'))).toHaveLength(2);
  expect(xml).toContain('<Nm>Anna Muster</Nm>');
  expect(xml).toContain('<Ustrd>Train ticket Bern</Ustrd>');
  expect(xml).toContain('<Ustrd>Spesen November</Ustrd>');
  expect(xml).not.toContain('SALA');
  await page.getByRole('button', { name: 'Mark as sent to the bank' }).click();
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await snap(page, 'staff-expenses-09-run-paid');
  await page.goto('/accounting/journal');
  await expect(page.getByText(`Payment of expense ${id} · Anna Muster · Train ticket Bern`).first()).toBeVisible();
  await page.goto('/bill/creditors');
  await expect(page.getByText('Nothing owed to staff.')).toBeVisible();

  // 8. A third expense refunded by hand with 'Pay' (cash): 2250 is cleared again.
  await page.goto('/bill/add?type=expense');
  await chooseOption(page, 'Employee', 'Anna Muster');
  await page.getByLabel('Amount').fill('8.40');
  await page.getByLabel('Description').fill('Coffee for the workshop');
  await page.getByRole('button', { name: 'Save expense' }).click();
  await page.waitForURL((url) => url.pathname === '/bill');
  const coffee = page.getByRole('row').filter({ hasText: 'Coffee for the workshop' });
  await coffee.getByRole('button', { name: 'Approve' }).click();
  await coffee.getByRole('button', { name: 'Pay', exact: true }).click();
  const pay = page.getByRole('dialog', { name: 'Pay expense' });
  await expect(pay.getByText('books debit 2250')).toBeVisible();
  await chooseOption(page, 'Paid from', /^1000 /);
  await expect(pay).toHaveCSS('opacity', '1');
  await snap(page, 'staff-expenses-10-pay-by-hand');
  await pay.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(coffee.getByText('Paid')).toBeVisible();
  await page.goto('/bill/creditors');
  await expect(page.getByText('Nothing owed to staff.')).toBeVisible();
  await expect(page.getByText(/^Balance of 2250 .* agrees with the open expenses\.$/)).toBeVisible();
  await snap(page, 'staff-expenses-11-creditors-settled');
});
