import { expect, test, type Page } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

// Issue #4 §1–2: a customer with a structured address, a QR-IBAN payment profile and additional
// properties; the Settings page's General Settings and Payment Configuration.
test('create a company with address, QR-IBAN profile and properties; edit settings', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Companies ${Date.now().toString(36)}`, currency: 'CHF' });

  await page.goto('/company');
  await expect(page.getByRole('heading', { name: 'Companies' })).toBeVisible();
  await expect(page.getByText('own company')).toBeVisible();
  await page.getByRole('link', { name: 'New company' }).click();
  await expect(page.getByRole('heading', { name: 'Create Company' })).toBeVisible();

  // Spec §5 messages and the eCH-0097 UID check, before anything is sent.
  await page.getByLabel('UID').fill('CHE-123.456.789');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('UID invalid')).toBeVisible();
  await expect(page.getByText('This field must be given').first()).toBeVisible();
  await snap(page, 'companies-01-add-errors');

  // Company data must fit a Swiss QR-bill (SIX IG v2.3 lengths, SPS 2025 character set).
  await page.getByLabel('Name').fill('Ωmega Kunde AG');
  await page.getByLabel('City').fill('Zürich Zürich Zürich Zürich Zürich Zürich');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('Character "Ω" cannot be used in Swiss payments')).toBeVisible();
  await expect(page.getByText('City must be at most 35 characters for Swiss QR-bills')).toBeVisible();
  await snap(page, 'companies-01b-add-qr-bill-errors');

  await page.getByLabel('Name').fill('Kunde Muster AG');
  await page.getByLabel('UID').fill('CHE-116.281.710');
  await page.getByLabel('Street').fill('Rue du Rhône');
  await page.getByLabel('House number').fill('12');
  await page.getByLabel('ZIP').fill('1204');
  await page.getByLabel('City').fill('Genève');
  await snap(page, 'companies-02-add');
  await page.getByRole('button', { name: 'Create company' }).click();

  await page.waitForURL(/\/company\/[0-9a-f-]+\/general$/);
  await expect(page.getByRole('heading', { name: 'Kunde Muster AG' })).toBeVisible();
  await expect(page.getByRole('link', { name: /CHE-116\.281\.710/ })).toHaveAttribute('href', 'https://www.uid.admin.ch/Detail.aspx?uid_id=CHE116281710');
  await snap(page, 'companies-03-general');

  await page.getByRole('tab', { name: 'Addresses' }).click();
  await expect(page.getByRole('cell', { name: 'Rue du Rhône' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '12', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Edit address/ }).click();
  await page.getByLabel('House number').fill('12bis');
  await page.getByLabel('ZIP').fill('');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByText('This field must be given')).toBeVisible();
  await page.getByLabel('ZIP').fill('1204');
  await page.getByRole('button', { name: 'Save address' }).click();
  await expect(page.getByRole('cell', { name: '12bis', exact: true })).toBeVisible();
  await snap(page, 'companies-04-addresses');

  // Payment profile: a plain IBAN as QR bill is refused in the open form, then a QR-IBAN is added.
  await page.getByRole('tab', { name: 'Payment profiles' }).click();
  await expect(page.getByText('No Payment Profiles Found')).toBeVisible();
  await page.getByRole('button', { name: 'Add payment profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add payment profile' });
  await dialog.getByRole('combobox', { name: 'Account' }).click();
  await dialog.getByRole('combobox', { name: 'Account' }).fill('1000');
  await page.getByRole('option', { name: /^1000 / }).first().click();
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'QR bill', exact: true }).click();
  await dialog.getByLabel('QR-IBAN').fill('CH93 0076 2011 6238 5295 7');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('The QR IBAN is invalid')).toBeVisible();
  await snap(page, 'companies-05-profile-error');
  await dialog.getByLabel('QR-IBAN').fill('CH44 3199 9123 0008 8901 2');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('CH44 3199 9123 0008 8901 2')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'QR bill' })).toBeVisible();

  // Public-ledger profiles: EIP-55 checked, an explorer link per chain, none for Goerli (shut down).
  const ETH = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const addLedgerProfile = async (type: string, address: string) => {
    await page.getByRole('button', { name: 'Add payment profile' }).click();
    await dialog.getByRole('combobox', { name: 'Account' }).click();
    await dialog.getByRole('combobox', { name: 'Account' }).fill('1000');
    await page.getByRole('option', { name: /^1000 / }).first().click();
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await dialog.getByLabel('Public address').fill(address);
    await dialog.getByRole('button', { name: 'Add' }).click();
  };
  await addLedgerProfile('Ethereum', ETH.replace('aA', 'Aa'));
  await expect(dialog.getByText('The public address is invalid')).toBeVisible();
  await dialog.getByLabel('Public address').fill(ETH);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: new RegExp(`^${ETH}`) })).toHaveAttribute('href', `https://etherscan.io/address/${ETH}`);
  await addLedgerProfile('Goerli', ETH.toLowerCase());
  await expect(dialog).toBeHidden();
  const goerli = page.getByLabel(`${ETH.toLowerCase()}: Goerli testnet is shut down`);
  await expect(goerli).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^${ETH.toLowerCase()}`) })).toHaveCount(0);
  await goerli.hover();
  await expect(page.getByRole('tooltip', { name: 'Goerli testnet is shut down' })).toBeVisible();
  await snap(page, 'companies-06-profiles');

  // Additional properties, validated and shown by type.
  await page.getByRole('tab', { name: 'Additional properties' }).click();
  const addProperty = async (type: string, name: string, value: string) => {
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Value').fill(value);
    await page.getByRole('button', { name: 'Add property' }).click();
  };
  await addProperty('Phone', 'Phone', '123');
  await expect(page.getByText('phone number invalid')).toBeVisible();
  await page.getByLabel('Value').fill('022 123 45 67');
  await page.getByRole('button', { name: 'Add property' }).click();
  await expect(page.getByRole('link', { name: '+41 22 123 45 67' })).toHaveAttribute('href', 'tel:+41221234567');
  await addProperty('Email', 'Billing', 'billing@kunde.ch');
  await expect(page.getByRole('link', { name: 'billing@kunde.ch' })).toHaveAttribute('href', 'mailto:billing@kunde.ch');
  await addProperty('Link', 'Website', 'javascript:alert(1)');
  await expect(page.getByText('link must be an http or https URL')).toBeVisible();
  await page.getByLabel('Value').fill('https://www.kunde.ch/kontakt');
  await page.getByRole('button', { name: 'Add property' }).click();
  const website = page.getByRole('link', { name: /www\.kunde\.ch\/kontakt/ });
  await expect(website).toHaveAttribute('href', 'https://www.kunde.ch/kontakt');
  await expect(website).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(website).toHaveAttribute('target', '_blank');
  await addProperty('Date', 'Customer since', '2019-03-01');
  await expect(page.getByRole('cell', { name: '01.03.2019' })).toBeVisible();
  await addProperty('Amount', 'Credit limit', '25000');
  await expect(page.getByRole('cell', { name: /^25.000,00 CHF$/ })).toBeVisible();
  await addProperty('Amount', 'Deposit', '1200.5 EUR');
  await expect(page.getByRole('cell', { name: /^1.200,50 EUR$/ })).toBeVisible();
  await addProperty('Reference Number', 'Reference', 'rf18 5390 0754 7034');
  await expect(page.getByText('RF18 5390 0754 7034')).toBeVisible();
  await expect(page.getByText('Creditor reference', { exact: true })).toBeVisible();
  await addProperty('Reference Number', 'QR reference', '210000000003139471430009017');
  await expect(page.getByText('21 00000 00003 13947 14300 09017')).toBeVisible();
  await addProperty('Barcode', 'GTIN', '4006381333931');
  const ean = page.getByRole('img', { name: 'EAN-13 barcode 4006381333931' });
  await expect(ean).toBeVisible();
  expect(await ean.locator('rect').count()).toBeGreaterThan(25);
  await addProperty('Barcode', 'Customer card', 'KUNDE-0042');
  await expect(page.getByRole('img', { name: 'Code 128 barcode KUNDE-0042' })).toBeVisible();
  await addProperty('Internal Link', 'Invoices', '/invoice');
  await expect(page.getByRole('link', { name: '/invoice', exact: true })).toHaveAttribute('href', '/invoice');
  await addProperty('Text', 'Note', 'Zahlt immer pünktlich');
  await expect(page.getByRole('cell', { name: 'Zahlt immer pünktlich' })).toBeVisible();
  await snap(page, 'companies-07-properties');

  await page.getByRole('tab', { name: 'Receivables & payables' }).click();
  await expect(page.getByText('Open receivables')).toBeVisible();
  await expect(page.getByText('Nothing open.').first()).toBeVisible();
  await snap(page, 'companies-08-ap-ar');

  await page.goto('/company');
  await page.getByLabel('Search').fill('genève');
  await expect(page.getByRole('link', { name: 'Kunde Muster AG' })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Search').fill('');
  await expect(page.getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('row').nth(1)).toContainText(' AG');
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('row').nth(1)).toContainText('Kunde Muster AG');
  await expect(page.getByText('2 companies')).toBeVisible();
  await snap(page, 'companies-09-list');

  // CSV import: all or nothing, each bad row named.
  await page.getByRole('button', { name: 'Import' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import companies' });
  const csv = (body: string) => ({ name: 'companies.csv', mimeType: 'text/csv', buffer: Buffer.from(body) });
  await importDialog.locator('input[type=file]').setInputFiles(csv('name,uid,street,houseNumber,zip,city,country\nLieferant GmbH,,Industriestrasse,7,6300,Zug,CH\nBad AG,CHE-123.456.789,,,,,\n'));
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(importDialog.getByText('line 3.uid: UID invalid')).toBeVisible();
  await snap(page, 'companies-09b-import-error');
  await importDialog.locator('input[type=file]').setInputFiles(csv('name,uid,street,houseNumber,zip,city,country\nLieferant GmbH,,Industriestrasse,7,6300,Zug,CH\nGood AG,CHE-116.281.710,,,,,\n'));
  await importDialog.getByRole('button', { name: 'Import' }).click();
  await expect(importDialog).toBeHidden();
  await expect(page.getByText('4 companies')).toBeVisible();
  await expect(page.getByRole('cell', { name: '6300 Zug', exact: true })).toBeVisible();

  // Settings (spec §2.7).
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'General Settings' })).toBeVisible();
  await expect(page.getByText('8.1 %')).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('VAT rate (%)').fill('120');
  // The settings page also holds the e-mail templates, each with its own Save.
  const vatForm = page.locator('form').filter({ has: page.getByLabel('VAT rate (%)') });
  await vatForm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText("VAT can't exceed 99%")).toBeVisible();
  await page.getByLabel('VAT rate (%)').fill('7.7');
  await page.getByLabel('VAT number').fill('CHE-116.281.710 MWST');
  await vatForm.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('7.7 %')).toBeVisible();
  await expect(page.getByRole('link', { name: /CHE-116\.281\.710 MWST/ })).toHaveAttribute('href', /uid_id=CHE116281710/);
  await expect(page.getByText('CH93 0076 2011 6238 5295 7')).toBeVisible();
  await snap(page, 'companies-10-settings');

  await page.getByRole('button', { name: /^Delete payment profile/ }).first().click();
  await expect(page.getByText('Are you sure you would like to delete that entry?')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No Payment Profiles Found')).toBeVisible();
  await snap(page, 'companies-11-settings-empty');
});

/** An access token for API set-up calls (rotates the refresh cookie inside the same browser context). */
async function apiToken(page: Page): Promise<string> {
  const response = await page.request.get('/napi/auth/refresh');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

// Issue #4 §1: the company list's open receivables and payables, the ap-ar page linking every
// document, and a delete refused with what keeps the company. Documents are set up through the API.
test('company list with open amounts, ap-ar with links, delete refused naming the documents', async ({ page }) => {
  await signUpAndOnboard(page, { name: `ApAr ${Date.now().toString(36)}`, currency: 'CHF' });
  const headers = { authorization: `Bearer ${await apiToken(page)}` };
  const post = async (path: string, data: unknown) => {
    const response = await page.request.post(`/api${path}`, { headers, data });
    expect(response.status(), await response.text()).toBe(200);
    return response.json();
  };
  const customer = await post('/company/insert', { data: { name: 'Simon Muster AG', uid: 'CHE-116.281.710', address: { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Seldwyla', country: { id: 1 } } } });
  const accounts = await post('/accounting/account/list', {});
  const bank = accounts.data.find((a: { number: string }) => a.number === '1000');
  const profile = await post('/payment-profile/insert', { data: { account: { id: bank.id }, type: 2, iban: 'CH4431999123000889012' } });
  const invoice = await post('/invoice/insert', {
    data: {
      company: { uuid: customer.uuid }, address: { id: customer.address.id }, paymentProfile: { id: profile.id }, vat: '0.081',
      dateInvoice: '2025-03-01', dateDue: '2025-03-31', description: 'Consulting March', items: [{ name: 'Workshop', amount: '2', price: '120.00', discount: '10' }, { name: 'Travel', amount: '1', price: '33.33' }],
    },
  });
  await post('/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-03-01' });
  const supplier = await post('/company/insert', { data: { name: 'Lieferant GmbH', address: { street: 'Industriestrasse', houseNumber: '7', zip: '6300', city: 'Zug', country: { id: 1 } } } });
  await post('/payable/insert', { data: { company: { uuid: supplier.uuid }, date: '2025-04-02', dueDate: '2025-05-02', amount: '500.00', referenceNumber: 'RF18539007547034' } });
  await post('/payable/insert', { data: { company: { uuid: customer.uuid }, date: '2025-04-05', amount: '12.35' } });

  await page.goto('/company');
  await expect(page.getByRole('columnheader', { name: 'Open receivables (CHF)' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Open payables (CHF)' })).toBeVisible();
  const customerRow = page.getByRole('row', { name: /Simon Muster AG/ });
  await expect(customerRow.getByRole('link', { name: /CHE-116\.281\.710/ })).toHaveAttribute('href', 'https://www.uid.admin.ch/Detail.aspx?uid_id=CHE116281710');
  await expect(customerRow.getByRole('cell', { name: '8000 Seldwyla' })).toBeVisible();
  await expect(customerRow.getByRole('link', { name: /Open receivables of Simon Muster AG: 269,55/ })).toBeVisible();
  await expect(customerRow.getByRole('link', { name: /Open payables of Simon Muster AG: 12,35/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Lieferant GmbH/ }).getByRole('link', { name: /Open payables of Lieferant GmbH: 500,00/ })).toBeVisible();
  await snap(page, 'companies-13-list-open-amounts');

  await customerRow.getByRole('link', { name: /Open receivables of Simon Muster AG/ }).click();
  await page.waitForURL(/\/company\/[0-9a-f-]+\/ap-ar$/);
  const receivables = page.getByRole('region', { name: 'Open receivables' });
  await expect(receivables).toContainText('Open receivables (1)');
  await expect(receivables).toContainText('269,55');
  await expect(page.getByRole('region', { name: 'Open payables' })).toContainText('12,35');
  await expect(page.getByText(/^Net/)).toContainText('257,20');
  await snap(page, 'companies-14-ap-ar');
  await receivables.getByRole('link', { name: /^BILAN\d{6}$/ }).click();
  await page.waitForURL(`**/invoice/${invoice.uuid}/detail`);
  await expect(page.getByRole('heading', { name: /Invoice BILAN\d{6}/ })).toBeVisible();

  await page.goto(`/company/${supplier.uuid}/ap-ar`);
  await page.getByRole('region', { name: 'Open payables' }).getByRole('link', { name: 'RF18539007547034' }).click();
  await page.waitForURL(/\/bill\?filterStatus=true&text=RF18539007547034$/);
  await expect(page.getByLabel('Search')).toHaveValue('RF18539007547034');
  await expect(page.getByRole('cell', { name: 'Lieferant GmbH' })).toBeVisible();
  await snap(page, 'companies-15-bill-from-ap-ar');

  // Delete refused, naming what keeps the company (issue #4 §1).
  await page.goto(`/company/${customer.uuid}/general`);
  await page.getByRole('button', { name: 'Delete company' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog').getByText('Simon Muster AG has 1 invoice, 1 bill and 1 posting; it cannot be deleted')).toBeVisible();
  await snap(page, 'companies-16-delete-refused');
});

// Spec §2.9: without register credentials the company step says the search is not available and
// the manual form is one click away (the Zefix adapter itself is tested against a local server
// in apps/server/test/companies/extras.test.ts).
test('onboarding company step without a configured commercial register', async ({ page }) => {
  await page.goto('/login/signup');
  await page.getByLabel('Workplace name').fill(`Register ${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('I read and agree to the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.locator('#email').fill('rita.register@example.ch');
  await page.locator('#name').fill('Rita Register');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/onboarding');
  await expect(page.getByText('The commercial register search is not available')).toBeVisible();
  await expect(page.getByText(/not connected to this installation/)).toBeVisible();
  await expect(page.getByLabel('Search the Swiss commercial register')).toBeDisabled();
  await snap(page, 'companies-12-onboarding-register');
  await page.getByRole('button', { name: 'We are not a registered Swiss company' }).click();
  await expect(page.getByLabel('Company name')).toBeVisible();
});
