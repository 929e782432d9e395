/**
 * Issue #5 audit in Chromium: "Pay selected" with the paying bank account and one execution date per
 * bill (two dates → two payment blocks), "Pay" on an approved staff expense (no IBAN), the creditors
 * total against 2000, and the reconciliation page showing why a bank debit stayed unmatched and
 * matching it by hand to one of the suggested bills.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

async function bearer(page: Page): Promise<string> {
  const request = page.waitForRequest((r) => r.url().includes('/api/') && !!r.headers().authorization);
  await page.goto('/bill');
  return (await request).headers().authorization!;
}

const OWN_IBAN = 'CH9300762011623852957';

function camt054(entries: { amount: string; ref: string; name: string }[]): string {
  const body = entries
    .map(
      (e) => `<Ntry><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2025-12-02</Dt></BookgDt>
<AcctSvcrRef>${e.ref}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd>
<RltdPties><Cdtr><Pty><Nm>${e.name}</Nm></Pty></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>E2E-REC-1</MsgId><CreDtTm>2025-12-02T18:00:00</CreDtTm></GrpHdr><Ntfctn><Id>E2E-REC-1-1</Id><CreDtTm>2025-12-02T18:00:00</CreDtTm>
<Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id></Acct>${body}</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

test('pay selected with two dates and a chosen bank, pay an expense, creditors, manual match', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Banking ${Date.now().toString(36)}`, currency: 'CHF' });
  const authorization = await bearer(page);
  const api = async (path: string, data?: unknown) => {
    const response = data === undefined ? await page.request.get(path, { headers: { authorization } }) : await page.request.post(path, { data, headers: { authorization } });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return response.json();
  };
  const accountId = async (number: string) => (await api('/api/accounting/account/list', { filters: { text: number } })).data.find((a: any) => a.number === number).id as number;

  // A second own bank account (1021) to pay from, and a supplier paid to an IBAN.
  const own = (await api('/api/company/list')).data.find((c: any) => c.isOwn);
  await api('/api/payment-profile/insert', { data: { company: { uuid: own.uuid }, account: { id: await accountId('1021') }, type: 1, iban: 'CH5604835012345678009' } });
  const supplier = await api('/api/company/insert', { data: { name: 'Muster Lieferant AG', address: { street: 'Musterstrasse', houseNumber: '12', zip: '8000', city: 'Zürich', country: { id: 1 } } } });
  const profile = await api('/api/payment-profile/insert', { data: { company: { uuid: supplier.uuid }, account: { id: await accountId('2000') }, type: 1, iban: 'CH5800791123000889012' } });
  const bill = async (amount: string, dueDate: string, description: string) => {
    const created = await api('/api/payable/insert', {
      data: { company: { uuid: supplier.uuid }, companyFinance: { id: profile.id }, date: '2025-11-20', dueDate, amount, vatRate: '0.081', description },
    });
    return api('/api/payable/update', { uuid: created.uuid, data: { status: 2 } });
  };
  const rent = await bill('1620.00', '2099-12-31', 'Miete Dezember');
  const paper = await bill('97.30', '2099-12-15', 'Papier');
  await bill('250.00', '2025-12-20', 'Toner');
  await bill('250.00', '2025-12-21', 'Toner Nachlieferung');
  const expense = await api('/api/payable/insert', { data: { isExpense: true, date: '2025-11-25', amount: '45.90', description: 'Taxi Kundentermin' } });
  await api('/api/payable/update', { uuid: expense.uuid, data: { status: 2 } });

  // Pay selected: two bills, paid from 1021, each on its own date.
  await page.goto('/bill');
  await expect(page.getByRole('button', { name: 'Pay', exact: true })).toHaveCount(5);
  await page.getByRole('checkbox', { name: `Select bill ${rent.id}` }).check();
  await page.getByRole('checkbox', { name: `Select bill ${paper.id}` }).check();
  await snap(page, 'banking-01-bills');
  await page.getByRole('button', { name: 'Pay selected (2)' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(`Execution date of bill ${rent.id}`)).toHaveValue('31.12.2099');
  await expect(dialog.getByLabel(`Execution date of bill ${paper.id}`)).toHaveValue('15.12.2099');
  await dialog.getByRole('combobox', { name: 'Pay from' }).click();
  await page.getByRole('option', { name: /^1021 / }).click();
  await expect(dialog.getByText('The payment file will hold 2 payment blocks (one per execution date).')).toBeVisible();
  await snap(page, 'banking-02-pay-selected-dialog');
  await dialog.getByRole('button', { name: 'Create transaction group' }).click();
  await page.waitForURL('**/transaction-group/*/detail');
  await expect(page.getByText('Execution dates (one payment block each)')).toBeVisible();
  await expect(page.getByText('15.12.2099, 31.12.2099')).toBeVisible();
  await expect(page.getByText(/CH56 0483 5012 3456 7800 9 \(1021\)/)).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download pain.001' }).click();
  const xml = readFileSync((await (await download).path())!, 'utf8');
  expect(xml.match(/<PmtInf>/g)).toHaveLength(2);
  expect(xml).toContain('<IBAN>CH5604835012345678009</IBAN>');
  await snap(page, 'banking-03-group-two-dates');

  // Pay the staff expense in cash: no IBAN needed.
  await page.goto('/bill');
  await page.getByRole('row').filter({ hasText: 'Taxi Kundentermin' }).getByRole('button', { name: 'Pay', exact: true }).click();
  const payDialog = page.getByRole('dialog');
  await expect(payDialog.getByText('books debit 2250')).toBeVisible();
  await payDialog.getByRole('combobox', { name: 'Paid from' }).click();
  await page.getByRole('option', { name: '1000 Bank' }).click();
  await snap(page, 'banking-04-pay-expense-dialog');
  await payDialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'Taxi Kundentermin' }).getByText('Paid')).toBeVisible();

  // Creditors: the two 250.00 bills still open (the grouped ones too), total = balance of 2000.
  await page.goto('/bill/creditors');
  await expect(page.getByText(/agrees with the open bills/)).toBeVisible();
  await snap(page, 'banking-05-creditors');

  // The bank debits 250.00 to "Muster Lieferant": two bills fit, so it waits for a person.
  await page.goto(`/accounting/account/${await accountId('1000')}/reconciliation`);
  await page.locator('input[type=file]').setInputFiles({ name: 'camt054.xml', mimeType: 'application/xml', buffer: Buffer.from(camt054([{ amount: '250.00', ref: 'REC-1', name: 'Muster Lieferant' }])) });
  await expect(page.getByText('1 bank transactions imported, 0 matched, 0 imported before.')).toBeVisible();
  await expect(page.getByText(/Not matched automatically: 2 open bills \(\d+, \d+\) match amount and creditor: match by hand/)).toBeVisible();
  await snap(page, 'banking-06-reconciliation-reason');
  await page.getByRole('combobox', { name: /^Open bill for / }).click();
  await page.getByRole('option', { name: /Muster Lieferant AG · 20\.11\.2025/ }).first().click();
  await snap(page, 'banking-07-reconciliation-choose');
  await page.getByRole('button', { name: 'Match', exact: true }).click();
  await expect(page.getByText('Every imported bank transaction is matched or booked.')).toBeVisible();
  await snap(page, 'banking-08-reconciliation-matched');

  await page.goto('/bill');
  await expect(page.getByRole('row').filter({ hasText: 'Toner' }).getByText('Paid')).toHaveCount(1);
  await snap(page, 'banking-09-bills-after');
});
