/**
 * Realized exchange differences in Chromium (docs/decisions/012): an EUR invoice marked paid for
 * the CHF the bank credited, an EUR bill marked paid for the CHF that left the account; each dialog
 * shows the gain or loss before posting, and the postings land on 6952 Kursgewinne and 6942
 * Kursverluste.
 */
import { expect, test } from '@playwright/test';
import { apiFor, customerInvoice } from './payables-support';
import { signUpAndOnboard, snap } from './support';

test('EUR invoice and EUR bill settled in CHF book the exchange gain and loss', async ({ page }) => {
  await signUpAndOnboard(page, { name: `FX ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const accountId = async (number: string) => (await api('/api/accounting/account/list', { filters: { text: number } })).data.find((a: any) => a.number === number).id as number;
  const balanceOf = async (number: string) =>
    ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;

  // 1 × 1000 EUR + 8.1 % VAT = 1081.00 EUR, booked at 0.94 = 1016.14 CHF.
  const address = { street: 'Rue du Marché', houseNumber: '4', zip: '1204', city: 'Genève', country: { id: 1 } };
  const invoice = await customerInvoice(
    api,
    { name: 'Client Lyon SARL', address },
    { currency: 'EUR', fxRate: '0.94', vat: '0.081', dateInvoice: '2025-10-01', items: [{ name: 'Conseil', amount: '1', price: '1000' }] },
  );
  expect(invoice.totalBase).toBe('1016.14');
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });

  await page.goto(`/invoice/${invoice.uuid}/detail`);
  await page.getByRole('button', { name: 'Mark paid' }).click();
  const paidDialog = page.getByRole('dialog', { name: 'Mark paid' });
  const received = paidDialog.getByLabel('Received in CHF');
  await expect(received).toHaveValue('1016,14');
  await expect(paidDialog.getByText('No exchange difference.')).toBeVisible();
  await received.fill('1023.50');
  await expect(paidDialog.getByText(/Exchange gain of CHF 7,36 to 6952 Kursgewinne/)).toBeVisible();
  await received.fill('1500');
  await expect(paidDialog.getByText(/More than 25 % away/)).toBeVisible();
  await received.fill('1023.50');
  await snap(page, 'fx-01-invoice-received-in-chf');
  await paidDialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Paid', { exact: true })).toBeVisible();
  expect(await balanceOf('1100')).toBe('0.00');
  expect(await balanceOf('6952')).toBe('-7.36');
  await snap(page, 'fx-02-invoice-paid');

  // 500 EUR at 0.95 = 475.00 CHF; the bank debited 481.20 CHF: a loss of 6.20.
  const supplier = await api('/api/company/insert', { data: { name: 'Fournisseur Paris SAS', address: { ...address, city: 'Lausanne', zip: '1003' } } });
  const bill = await api('/api/payable/insert', {
    data: { company: { uuid: supplier.uuid }, date: '2025-10-05', amount: '500.00', currency: 'EUR', exchangeRate: '0.95', description: 'Licence annuelle' },
  });
  await api('/api/payable/update', { uuid: bill.uuid, data: { status: 2 } });
  await page.goto('/bill');
  await page.getByRole('row').filter({ hasText: 'Licence annuelle' }).getByRole('button', { name: 'Pay', exact: true }).click();
  const payDialog = page.getByRole('dialog');
  const paidOut = payDialog.getByLabel('Paid in CHF');
  await expect(paidOut).toHaveValue('475,00');
  await paidOut.fill('481.20');
  await expect(payDialog.getByText(/Exchange loss of CHF 6,20 to 6942 Kursverluste/)).toBeVisible();
  await snap(page, 'fx-03-bill-paid-in-chf');
  await payDialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'Licence annuelle' }).getByText('Paid')).toBeVisible();
  expect(await balanceOf('2000')).toBe('0.00');
  expect(await balanceOf('6942')).toBe('6.20');

  // A bank debit of 478.00 CHF without reference: the EUR bill (booked 475.00) is offered, matched by hand.
  const second = await api('/api/payable/insert', {
    data: { company: { uuid: supplier.uuid }, date: '2025-10-06', amount: '500.00', currency: 'EUR', exchangeRate: '0.95', description: 'Licence Q2' },
  });
  await api('/api/payable/update', { uuid: second.uuid, data: { status: 2 } });
  const camt = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>E2E-FX-1</MsgId><CreDtTm>2025-10-20T18:00:00</CreDtTm></GrpHdr><Ntfctn><Id>E2E-FX-1-1</Id><CreDtTm>2025-10-20T18:00:00</CreDtTm>
<Acct><Id><IBAN>CH9300762011623852957</IBAN></Id></Acct><Ntry><Amt Ccy="CHF">478.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
<BookgDt><Dt>2025-10-20</Dt></BookgDt><AcctSvcrRef>FX-REC-1</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
</Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
  await page.goto(`/accounting/account/${await accountId('1000')}/reconciliation`);
  await page.locator('input[type=file]').setInputFiles({ name: 'camt054.xml', mimeType: 'application/xml', buffer: Buffer.from(camt) });
  await expect(page.getByText('1 bank transactions imported, 0 matched, 0 imported before.')).toBeVisible();
  await page.getByRole('combobox', { name: /^Open bill for / }).click();
  await page.getByRole('option', { name: /Fournisseur Paris SAS · 06\.10\.2025 · EUR 500,00/ }).click();
  await expect(page.getByText(/EUR 500,00 paid as CHF 478,00: the difference to the booked amount is an exchange/)).toBeVisible();
  await snap(page, 'fx-04-reconciliation-converted');
  await page.getByRole('button', { name: 'Match', exact: true }).click();
  await expect(page.getByText('Every imported bank transaction is matched or booked.')).toBeVisible();
  expect(await balanceOf('6942')).toBe('9.20');
});

test('an EUR invoice paid in two parts through Mark paid, each at what the bank credited in CHF', async ({ page }) => {
  await signUpAndOnboard(page, { name: `FX parts ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post } = await apiFor(page);
  const api = async (path: string, data: unknown = {}) => (await post(path, data)).json();
  const balanceOf = async (number: string) =>
    ((await api('/api/accounting/balance/get', { date: '2099-12-31' })).accounts.find((a: any) => a.number === number)?.balance ?? '0.00') as string;
  // 1081.00 EUR booked at 0.94 = 1016.14 CHF.
  const invoice = await customerInvoice(
    api,
    { name: 'Client Nice SAS', address: { street: 'Rue du Lac', houseNumber: '2', zip: '1003', city: 'Lausanne', country: { id: 1 } } },
    { currency: 'EUR', fxRate: '0.94', vat: '0.081', dateInvoice: '2025-10-01', items: [{ name: 'Conseil', amount: '1', price: '1000' }] },
  );
  await api('/api/invoice/status/change', { uuid: invoice.uuid, status: 2, ledgerDate: '2025-10-01' });
  await page.goto(`/invoice/${invoice.uuid}/detail`);

  // 500.00 EUR arrive as 472.50 CHF: 470.00 booked, a gain of 2.50; 581.00 EUR stay open.
  await page.getByRole('button', { name: 'Mark paid' }).click();
  let dialog = page.getByRole('dialog', { name: 'Mark paid' });
  await dialog.getByLabel('Amount received (EUR)').fill('500.00');
  await expect(dialog.getByText('Part payment: EUR 581,00 stays open')).toBeVisible();
  await expect(dialog.getByLabel('Received in CHF')).toHaveValue('470,00');
  await dialog.getByLabel('Received in CHF').fill('472.50');
  await expect(dialog.getByText(/Exchange gain of CHF 2,50 to 6952 Kursgewinne/)).toBeVisible();
  await snap(page, 'fx-05-invoice-part-payment');
  await dialog.getByRole('button', { name: 'Record part payment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await balanceOf('1100')).toBe('546.14');

  // The rest, 581.00 EUR, arrives as 540.00 CHF: the receivable is cleared, a loss of 6.14.
  await page.getByRole('button', { name: 'Mark paid' }).click();
  dialog = page.getByRole('dialog', { name: 'Mark paid' });
  await expect(dialog.getByLabel('Amount received (EUR)')).toHaveValue('581,00');
  await dialog.getByLabel('Received in CHF').fill('540.00');
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  expect(await balanceOf('1100')).toBe('0.00');
  expect(await balanceOf('6952')).toBe('-2.50');
  expect(await balanceOf('6942')).toBe('6.14');
});
