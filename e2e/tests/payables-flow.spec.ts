/**
 * Issue #5 in Chromium: two supplier bills entered in the form → approved → grouped → pain.001
 * downloaded → a camt.054 paying both imported → bills paid, bank balance in the trial balance →
 * creditors and the outflows CSV.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signUpAndOnboard, snap } from './support';

async function bearer(page: Page): Promise<string> {
  const request = page.waitForRequest((r) => r.url().includes('/api/') && !!r.headers().authorization);
  await page.goto('/bill');
  return (await request).headers().authorization!;
}

async function selectOption(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).click();
}

function camt054(iban: string, payments: { e2e: string; amount: string }[]): string {
  const entries = payments
    .map(
      (p, i) => `<Ntry><Amt Ccy="CHF">${p.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2025-11-26</Dt></BookgDt>
<AcctSvcrRef>E2E-REF-${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>${p.e2e}</EndToEndId></Refs><Amt Ccy="CHF">${p.amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls></NtryDtls></Ntry>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
<GrpHdr><MsgId>E2E-NTF-1</MsgId><CreDtTm>2025-11-26T18:00:00</CreDtTm></GrpHdr><Ntfctn><Id>E2E-NTF-1-1</Id><CreDtTm>2025-11-26T18:00:00</CreDtTm>
<Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${entries}</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

test('bills → transaction group → pain.001 → camt.054 → paid and booked', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Payables ${Date.now().toString(36)}`, currency: 'CHF' });
  const authorization = await bearer(page);
  const api = (path: string, data: unknown) => page.request.post(path, { data, headers: { authorization } });

  // A supplier with a QR-IBAN and an ordinary IBAN (the companies API of issue #4).
  const inserted = await api('/api/company/insert', { data: { name: 'Papeterie Muster AG', address: { street: 'Musterstrasse', houseNumber: '12', zip: '8000', city: 'Zürich', country: { id: 1 } } } });
  expect(inserted.status(), await inserted.text()).toBe(200);
  const company = await inserted.json();
  const accounts = await (await api('/api/accounting/account/list', { filters: { text: '2000' } })).json();
  const payablesAccount = accounts.data.find((a: any) => a.number === '2000').id;
  for (const [type, iban] of [[2, 'CH4431999123000889012'], [1, 'CH5800791123000889012']] as const) {
    const profile = await api('/api/payment-profile/insert', { data: { company: { uuid: company.uuid }, account: { id: payablesAccount }, type, iban } });
    expect(profile.status(), await profile.text()).toBe(200);
  }

  // Bill 1: QR-bill with QR reference, entered in the form.
  await page.goto('/bill/add');
  await expect(page.getByRole('heading', { name: 'Add bill' })).toBeVisible();
  await selectOption(page, 'Supplier', 'Papeterie Muster AG');
  await selectOption(page, 'Pay to (IBAN / QR-IBAN)', 'CH44 3199 9123 0008 8901 2 (QR)');
  // No amount yet: the form's own check (the routes' payableDataSchema) answers under the field, no request leaves.
  const inserts: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/payable/insert')) inserts.push(r.url());
  });
  await page.getByRole('button', { name: 'Save bill' }).click();
  const amountError = page.getByText('This field is required');
  await expect(amountError).toBeVisible();
  await expect(page.getByLabel('Amount')).toHaveAttribute('aria-invalid', 'true');
  await snap(page, 'payables-00-bill-form-schema-error');
  expect(inserts).toEqual([]);
  await page.getByLabel('Amount').fill('1081.00');
  await expect(amountError).toBeHidden();
  await page.getByLabel('of which VAT').fill('81.00');
  await page.getByLabel('Reference (QR or RF…)').fill('12345');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await expect(page.getByText('reference is neither a QR reference nor a creditor reference (RF…)')).toBeVisible();
  await snap(page, 'payables-01-bill-form-error');
  await page.getByLabel('Reference (QR or RF…)').fill('21 00000 00003 13947 14300 09017');
  await page.getByLabel('Description').fill('Büromaterial');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');

  // Bill 2: ordinary IBAN with a creditor reference.
  await page.goto('/bill/add');
  await selectOption(page, 'Supplier', 'Papeterie Muster AG');
  await selectOption(page, 'Pay to (IBAN / QR-IBAN)', 'CH58 0079 1123 0008 8901 2');
  await page.getByLabel('Amount').fill('540.50');
  await page.getByLabel('Reference (QR or RF…)').fill('RF18539007547034');
  await snap(page, 'payables-02-bill-form');
  await page.getByRole('button', { name: 'Save bill' }).click();
  await page.waitForURL('**/bill');

  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(2);
  await snap(page, 'payables-03-bills-pending');
  await page.getByRole('button', { name: 'Approve' }).first().click();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  for (const box of await page.getByRole('checkbox', { name: /Select bill/ }).all()) await box.check();
  await snap(page, 'payables-04-bills-approved');
  await page.getByRole('button', { name: 'Pay selected (2)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Create transaction group' }).click();

  await page.waitForURL('**/transaction-group/*/detail');
  await expect(page.getByRole('heading', { name: /Transaction Group TG\d+/ })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download pain.001' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^TG\d+-pain001\.xml$/);
  const xml = readFileSync((await file.path())!, 'utf8');
  expect(xml).toContain('<NbOfTxs>2</NbOfTxs>');
  expect(xml).toContain('<CtrlSum>1621.50</CtrlSum>');
  await page.getByRole('button', { name: 'Mark as sent to the bank' }).click();
  await expect(page.getByText('Initiated')).toBeVisible();
  await snap(page, 'payables-05-group-initiated');

  // The bank's notification of both debits.
  const payments = [...xml.matchAll(/<EndToEndId>([^<]+)<\/EndToEndId>[\s\S]*?<InstdAmt Ccy="CHF">([^<]+)<\/InstdAmt>/g)].map((m) => ({ e2e: m[1]!, amount: m[2]! }));
  expect(payments).toHaveLength(2);
  await page.locator('input[type=file]').setInputFiles({ name: 'camt054.xml', mimeType: 'application/xml', buffer: Buffer.from(camt054('CH9300762011623852957', payments)) });
  await expect(page.getByText('2 bank transactions imported, 2 matched, 0 imported before.')).toBeVisible();
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await snap(page, 'payables-06-group-paid');

  await page.goto('/transaction-group');
  await expect(page.getByRole('link', { name: /^TG\d+$/ })).toBeVisible();
  await snap(page, 'payables-07-groups');

  await page.goto('/accounting/trial-balance');
  const bankRow = page.getByRole('row').filter({ hasText: '1000' }).first();
  await expect(bankRow).toContainText(/\(1.621,50\)/);
  await snap(page, 'payables-08-trial-balance');

  // Reconciliation: a statement with the two debits and one unknown credit, booked by hand to revenue.
  const bankList = await (await api('/api/accounting/account/list', { filters: { text: '1000' } })).json();
  const bankId = bankList.data.find((a: any) => a.number === '1000').id;
  await page.goto(`/accounting/account/${bankId}/reconciliation`);
  // The camt.054 settled the run already: its two lines are reconciled, no statement closes yet.
  await expect(page.getByRole('heading', { name: 'Reconciliation 1000 Bank' })).toBeVisible();
  await expect(page.getByText(/^No statement closing on or before/)).toBeVisible();
  await expect(page.getByText('Booked entry 3')).toBeVisible();
  const statement = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>E2E-STMT-1</MsgId><CreDtTm>2025-11-30T20:00:00</CreDtTm></GrpHdr><Stmt><Id>E2E-STMT-1-1</Id><CreDtTm>2025-11-30T20:00:00</CreDtTm>
<Acct><Id><IBAN>CH9300762011623852957</IBAN></Id></Acct>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">1121.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2099-11-30</Dt></Dt></Bal>
<Ntry><Amt Ccy="CHF">500.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2025-11-28</Dt></BookgDt><AcctSvcrRef>E2E-IN-1</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>
<NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><RltdPties><Dbtr><Pty><Nm>Kunde Beispiel</Nm></Pty></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
  await page.locator('input[type=file]').setInputFiles({ name: 'camt053.xml', mimeType: 'application/xml', buffer: Buffer.from(statement) });
  await expect(page.getByText('1 bank transactions imported, 0 matched, 0 imported before.')).toBeVisible();
  await expect(page.getByText('Kunde Beispiel')).toBeVisible();
  await snap(page, 'payables-08b-reconciliation-open');
  await page.getByRole('combobox', { name: /Counter account for/ }).click();
  await page.getByRole('option', { name: '3400 Dienstleistungserlöse' }).click();
  await page.getByRole('button', { name: 'Book', exact: true }).click();
  await expect(page.getByText('Every imported bank transaction is matched or booked.')).toBeVisible();
  await snap(page, 'payables-08c-reconciliation-done');

  await page.goto('/bill/creditors');
  await expect(page.getByText('No open bills.')).toBeVisible();
  await page.goto('/bill?filterStatus=true');
  await expect(page.getByText('No bills yet.')).toBeVisible();
  await page.goto('/bill');
  await snap(page, 'payables-09-bills-paid');

  await page.goto('/report');
  await expect(page.getByRole('heading', { name: 'Outflows Report Page' })).toBeVisible();
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('ExportOutflows.csv');
  const lines = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
  expect(lines[0]).toBe('id,date,amount,company,isExpense,status,transactionGroupStatus');
  expect(lines.slice(1).map((l) => l.split(',').slice(2).join(','))).toEqual(
    expect.arrayContaining(['1081.00,Papeterie Muster AG,false,paid,paid', '540.50,Papeterie Muster AG,false,paid,paid']),
  );
  await snap(page, 'payables-10-report');
});

test('inbox: upload files, draft a bill beside the preview', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Inbox ${Date.now().toString(36)}`, currency: 'CHF' });
  await page.goto('/inbox');
  await expect(page.getByText('The inbox is empty.')).toBeVisible();
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
  await page.getByLabel('Choose files').setInputFiles([
    { name: 'taxi.pdf', mimeType: 'application/pdf', buffer: pdf },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') },
  ]);
  await expect(page.getByRole('link', { name: 'taxi.pdf' })).toBeVisible();
  await expect(page.getByText('notes.txt: only PDF, PNG, JPEG, WebP and .eml files')).toBeVisible();
  await snap(page, 'payables-11-inbox');
  await page.getByRole('link', { name: 'taxi.pdf' }).click();
  await expect(page.getByRole('heading', { name: 'Bill from taxi.pdf' })).toBeVisible();
  await page.getByText('Expense (staff)').click();
  // A staff expense is owed to an employee (issue 16 §4): a new one, with the IBAN to refund to.
  await page.getByRole('button', { name: 'New employee (name and IBAN)' }).click();
  await page.getByRole('textbox', { name: 'Employee' }).fill('Beat Keller');
  await page.getByRole('textbox', { name: 'IBAN' }).fill('CH39 0870 4016 0754 7300 7');
  await page.getByLabel('Amount').fill('45.90');
  await page.getByLabel('Description').fill('Taxi to the client');
  await snap(page, 'payables-12-inbox-draft');
  await page.getByRole('button', { name: 'Save expense' }).click();
  await page.waitForURL('**/bill');
  await expect(page.getByText('Taxi to the client')).toBeVisible();
  await page.goto('/inbox');
  await expect(page.getByText(/^Bill \d+$/)).toBeVisible();
});
