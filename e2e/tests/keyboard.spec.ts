/**
 * Issue 17 §4: every flow of the foundation, invoicing and payables tests by keyboard alone. After
 * `page.goto` (typing an address), only keys: Tab / Shift+Tab move the focus, Enter and Space press
 * buttons, arrows and Enter choose options, dates are typed as text. `expect` checks where the
 * focus is and what the page shows; the screenshots show the focus ring. Tests 2 and 3 start
 * from `signUpAndOnboard` (the sign-up by keyboard is test 1); test 3's supplier and its IBAN come
 * through the API as in payables-flow.spec.ts. No step needs a file dialog.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiFor } from './payables-support';
import { daysBefore, signUpAndOnboard, snap, swissToday } from './support';

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, back = false, max = 60): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** Tabs to the combobox `box`, types `search` (if any), goes down to the option `option` and takes it with Enter. */
async function choose(page: Page, box: Locator, option: string | RegExp, search?: string): Promise<void> {
  await tabTo(page, box);
  if (search) await page.keyboard.type(search);
  else await page.keyboard.press('ArrowDown');
  const wanted = page.getByRole('option', { name: option }).first();
  await expect(wanted).toBeVisible();
  for (let i = 0; i < 30 && (await wanted.getAttribute('data-combobox-selected')) === null; i++) await page.keyboard.press('ArrowDown');
  await expect(wanted).toHaveAttribute('data-combobox-selected', 'true');
  // Enter on the option already chosen would clear the select (Mantine's allowDeselect): Escape keeps it.
  await page.keyboard.press((await wanted.getAttribute('aria-selected')) === 'true' ? 'Escape' : 'Enter');
  await expect(wanted).toBeHidden();
}

/** An entry line's account: its number typed into the combobox, the first match taken with Enter. */
async function account(page: Page, line: number, number: string): Promise<void> {
  const box = page.getByRole('combobox', { name: `Account, line ${line}` });
  await tabTo(page, box);
  await page.keyboard.type(number);
  await expect(page.getByRole('option').first()).toHaveAttribute('data-combobox-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue(new RegExp(`^${number} `));
}

/** Types into the field `field` after tabbing to it (the field is empty or its text is selected first). */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

test('foundation by keyboard: sign up, onboard, add a journal entry, see it in the journal', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const name = `Keys ${Date.now().toString(36)}`;

  await page.goto('/login/signup');
  await expect(page.getByRole('heading', { name: 'Create your Bilan workplace' })).toBeVisible();
  await typeInto(page, page.getByLabel('Workplace name'), name);
  await page.keyboard.press('Enter');
  const terms = page.getByLabel('I read and agree to the Terms and Conditions');
  await tabTo(page, terms);
  await page.keyboard.press('Space');
  await expect(terms).toBeChecked();
  // Ticked, the box is locked (disabled, spec §4) and gives up the focus; Tab goes on from there.
  await tabTo(page, page.getByRole('button', { name: 'Sign in with Google' }));
  await snap(page, 'keyboard-01-signup-provider');
  await page.keyboard.press('Enter');

  // The built-in OpenID provider's sign-in form.
  await typeInto(page, page.locator('#email'), 'anna.muster@example.ch');
  await typeInto(page, page.locator('#name'), 'Anna Muster');
  await tabTo(page, page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');

  await page.waitForURL('**/onboarding');
  await expect(page.getByText('Set up your workplace')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'We are not a registered Swiss company' }));
  await page.keyboard.press('Enter');
  const company = page.getByLabel('Company name');
  await expect(company).toBeFocused();
  await page.keyboard.type(`${name} AG`);
  await snap(page, 'keyboard-02-onboarding-company');
  await page.keyboard.press('Enter');

  const street = page.getByLabel('Street');
  await expect(street).toBeFocused();
  await page.keyboard.type('Bahnhofstrasse');
  await typeInto(page, page.getByLabel('House number'), '1');
  await typeInto(page, page.getByLabel('ZIP'), '8001');
  await typeInto(page, page.getByLabel('City'), 'Zürich');
  await page.keyboard.press('Enter');

  await expect(page.getByLabel('Ledger code')).toHaveValue('1000');
  await typeInto(page, page.getByLabel('IBAN'), 'CH93 0076 2011 6238 5295 7');
  await snap(page, 'keyboard-03-onboarding-bank');
  await page.keyboard.press('Enter');

  await expect(page.getByLabel('VAT')).toHaveValue('8,1');
  const finish = page.getByRole('button', { name: 'Finish' });
  await tabTo(page, finish);
  await snap(page, 'keyboard-04-onboarding-finish');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/', { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  // A balanced entry: bank 1000 debit 1'250.50 / revenue 3200 credit.
  await page.goto('/accounting/entry/add');
  await expect(page.getByRole('heading', { name: 'Add Journal Entry' })).toBeVisible();
  const date = page.getByRole('textbox', { name: 'Date' });
  await typeInto(page, date, '15.01.2026');
  await page.keyboard.press('Escape');
  await typeInto(page, page.getByLabel('Description'), 'Keyboard consulting');
  await expect(date).toHaveValue('15.01.2026');
  await account(page, 1, '1000');
  await typeInto(page, page.getByLabel('Debit, line 1'), '1250.50');
  await account(page, 2, '3200');
  await typeInto(page, page.getByLabel('Credit, line 2'), '1250.50');
  const save = page.getByRole('button', { name: 'Save', exact: true });
  await tabTo(page, save);
  await snap(page, 'keyboard-05-entry-save');
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('status').filter({ hasText: 'was successfully added.' })).toContainText(/Journal Entry \d+ was successfully added\./);
  await page.goto('/accounting/journal');
  await expect(page.getByText('Keyboard consulting').first()).toBeVisible();
  await snap(page, 'keyboard-06-journal');
  expect(errors).toEqual([]);
});

/** dd.mm.yyyy of `daysAgo` days before today in Switzerland (the app's today). */
function shownDay(daysAgo: number): string {
  const iso = daysBefore(swissToday(), daysAgo);
  return `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
}

test('invoicing by keyboard: customer, invoice, send, PDF', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signUpAndOnboard(page, { name: `Keys Inv ${Date.now().toString(36)}`, currency: 'CHF' });

  // The customer with its address.
  await page.goto('/company/add');
  await expect(page.getByRole('heading', { name: 'Create Company' })).toBeVisible();
  await typeInto(page, page.getByLabel('Name'), 'Tastatur Kunde AG');
  await expect(page.getByLabel('Add an address')).toBeChecked();
  await typeInto(page, page.getByLabel('Street'), 'Marktgasse');
  await typeInto(page, page.getByLabel('House number'), '5');
  await typeInto(page, page.getByLabel('ZIP'), '3011');
  await typeInto(page, page.getByLabel('City'), 'Bern');
  const create = page.getByRole('button', { name: 'Create company' });
  await tabTo(page, create);
  await snap(page, 'keyboard-10-company');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/company\/[0-9a-f-]+\/general$/);
  await expect(page.getByRole('heading', { name: 'Tastatur Kunde AG' })).toBeVisible();

  // The invoice: customer, address, payment profile, dates, one line.
  await page.goto('/invoice/add');
  await expect(page.getByRole('heading', { name: 'Create Invoice' })).toBeVisible();
  await choose(page, page.getByRole('combobox', { name: 'Customer' }), 'Tastatur Kunde AG', 'Tastatur');
  const address = page.getByRole('combobox', { name: 'Address' });
  await expect(address).toHaveValue('Marktgasse 5, 3011 Bern');
  await choose(page, address, 'Marktgasse 5, 3011 Bern');
  await choose(page, page.getByRole('combobox', { name: 'Pay to (payment profile)' }), /IBAN CH93 0076/);
  await typeInto(page, page.getByLabel('Invoice date'), shownDay(3));
  await page.keyboard.press('Escape');
  await typeInto(page, page.getByLabel('Due date'), shownDay(-27));
  await page.keyboard.press('Escape');
  await typeInto(page, page.getByLabel('Description'), 'Keyboard workshop');
  await typeInto(page, page.getByLabel('Item 1 name'), 'Workshop');
  await typeInto(page, page.getByLabel('Item 1 quantity'), '2');
  await typeInto(page, page.getByLabel('Item 1 price'), '150');
  await expect(page.getByLabel('Invoice date')).toHaveValue(shownDay(3));
  await expect(page.getByLabel('Due date')).toHaveValue(shownDay(-27));
  await expect(page.getByLabel('Totals')).toContainText('324,30');
  const createInvoice = page.getByRole('button', { name: 'Create Invoice' });
  await tabTo(page, createInvoice);
  await snap(page, 'keyboard-11-invoice');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}\/detail$/);
  await expect(page.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();

  // Send: the dialog's action has the focus.
  await tabTo(page, page.getByRole('button', { name: 'Send', exact: true }));
  await page.keyboard.press('Enter');
  const sendDialog = page.getByRole('dialog', { name: 'Send invoice' });
  await expect(sendDialog.getByLabel('Ledger date')).toHaveValue(shownDay(3));
  const send = sendDialog.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeFocused();
  await snap(page, 'keyboard-12-send-dialog');
  await page.keyboard.press('Enter');
  await expect(sendDialog).toBeHidden();
  await expect(page.getByText('Sent', { exact: true })).toBeVisible();

  // The PDF.
  const pdf = page.getByRole('button', { name: 'Download PDF' });
  await tabTo(page, pdf);
  await snap(page, 'keyboard-13-download-pdf');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  expect(readFileSync((await file.path())!).subarray(0, 5).toString()).toBe('%PDF-');
  expect(errors).toEqual([]);
});

test('payables by keyboard: bill, approve, payment run, pain.001', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await signUpAndOnboard(page, { name: `Keys Pay ${Date.now().toString(36)}`, currency: 'CHF' });

  // The supplier with an IBAN, set up through the API as in payables-flow.spec.ts.
  const { post } = await apiFor(page);
  const supplier = await (await post('/api/company/insert', { data: { name: 'Tastatur Papeterie AG', address: { street: 'Musterstrasse', houseNumber: '12', zip: '8000', city: 'Zürich', country: { id: 1 } } } })).json();
  const accounts = await (await post('/api/accounting/account/list', { filters: { text: '2000' } })).json();
  const payables = accounts.data.find((a: { number: string }) => a.number === '2000').id;
  await post('/api/payment-profile/insert', { data: { company: { uuid: supplier.uuid }, account: { id: payables }, type: 1, iban: 'CH5800791123000889012' } });

  await page.goto('/bill/add');
  await expect(page.getByRole('heading', { name: 'Add bill' })).toBeVisible();
  await choose(page, page.getByRole('combobox', { name: 'Supplier' }), 'Tastatur Papeterie AG', 'Tastatur');
  await choose(page, page.getByRole('combobox', { name: 'Pay to (IBAN / QR-IBAN)' }), 'CH58 0079 1123 0008 8901 2');
  await typeInto(page, page.getByLabel('Bill date'), shownDay(2));
  await page.keyboard.press('Escape');
  await typeInto(page, page.getByLabel('Amount'), '540.50');
  await typeInto(page, page.getByLabel('Reference (QR or RF…)'), 'RF18539007547034');
  await typeInto(page, page.getByLabel('Description', { exact: true }), 'Druckerpapier');
  await expect(page.getByLabel('Bill date')).toHaveValue(shownDay(2));
  const saveBill = page.getByRole('button', { name: 'Save bill' });
  await tabTo(page, saveBill);
  await snap(page, 'keyboard-20-bill');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/bill');

  // Approve, select, pay.
  const approve = page.getByRole('button', { name: 'Approve' });
  await tabTo(page, approve);
  await page.keyboard.press('Enter');
  await expect(approve).toHaveCount(0);
  const select = page.getByRole('checkbox', { name: /Select bill/ });
  await tabTo(page, select, true);
  await page.keyboard.press('Space');
  await expect(select).toBeChecked();
  const pay = page.getByRole('button', { name: 'Pay selected (1)' });
  await tabTo(page, pay, true);
  await snap(page, 'keyboard-21-bills-approved');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const createGroup = dialog.getByRole('button', { name: 'Create transaction group' });
  await expect(createGroup).toBeEnabled();
  await tabTo(page, createGroup);
  await snap(page, 'keyboard-22-payment-run');
  await page.keyboard.press('Enter');

  await page.waitForURL('**/transaction-group/*/detail');
  await expect(page.getByRole('heading', { name: /Transaction Group TG\d+/ })).toBeVisible();
  const painButton = page.getByRole('button', { name: 'Download pain.001' });
  await tabTo(page, painButton);
  await snap(page, 'keyboard-23-pain001');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^TG\d+-pain001\.xml$/);
  const xml = readFileSync((await file.path())!, 'utf8');
  expect(xml).toContain('<NbOfTxs>1</NbOfTxs>');
  expect(xml).toContain('<CtrlSum>540.50</CtrlSum>');
  expect(errors).toEqual([]);
});
