/**
 * Bank reconciliation against the books in Chromium (issue 14 §1, §2): a payment run paid via the
 * bank's camt.054, then the month's camt.053 imported on the reconciliation page — the batch debit
 * (two payments + charges) and a deposit booked by hand are found in the books, the charges are
 * booked, a late deposit is matched by hand to its posting, an unknown debit is ignored, taken back
 * and booked. Every line is matched or booked once, the difference is 0.00 and the trial balance
 * shows the bank at the statement's closing balance. Also: a refused file shows the server's
 * sentence, and a test import nobody reconciled is deleted.
 */
import { expect, test } from '@playwright/test';
import { apiFor, camt054For } from './payables-support';
import { shownAmount, signUpAndOnboard, snap } from './support';

const OWN_IBAN = 'CH9300762011623852957';

type Entry = { dir: 'CRDT' | 'DBIT'; amount: string; ref: string; date: string; name?: string; details?: { amount: string; e2e: string }[]; charges?: string };

/** A camt.053.001.08 of the own account: OPBD `opening` on the 1st, the entries, CLBD `closing` on `closingDate`. */
function camt053(id: string, opening: string, closing: string, closingDate: string, entries: Entry[]): string {
  const bal = (type: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const body = entries
    .map((e) => {
      const details = (e.details ?? [{ amount: e.amount, e2e: 'NOTPROVIDED' }])
        .map(
          (d) =>
            `<TxDtls><Refs><EndToEndId>${d.e2e}</EndToEndId></Refs><Amt Ccy="CHF">${d.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd>${e.name ? `<RltdPties><${e.dir === 'CRDT' ? 'Dbtr' : 'Cdtr'}><Pty><Nm>${e.name}</Nm></Pty></${e.dir === 'CRDT' ? 'Dbtr' : 'Cdtr'}></RltdPties>` : ''}</TxDtls>`,
        )
        .join('');
      const charges = e.charges ? `<Chrgs><TtlChrgsAndTaxAmt Ccy="CHF">${e.charges}</TtlChrgsAndTaxAmt><Rcrd><Amt Ccy="CHF">${e.charges}</Amt><CdtDbtInd>DBIT</CdtDbtInd></Rcrd></Chrgs>` : '';
      return `<Ntry><Amt Ccy="CHF">${e.amount}</Amt><CdtDbtInd>${e.dir}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${e.date}</Dt></BookgDt><ValDt><Dt>${e.date}</Dt></ValDt>
<AcctSvcrRef>${e.ref}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.dir === 'CRDT' ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>${charges}<NtryDtls>${details}</NtryDtls></Ntry>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>${closingDate}T20:00:00</CreDtTm></GrpHdr>
<Stmt><Id>${id}-1</Id><CreDtTm>${closingDate}T20:00:00</CreDtTm><Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
${bal('OPBD', opening, `${closingDate.slice(0, 8)}01`)}${bal('CLBD', closing, closingDate)}
${body}
</Stmt></BkToCstmrStmt></Document>`;
}

test('a payment run paid via camt.054, the month camt.053 reconciled to 0.00, trial balance bank = closing balance', async ({ page }) => {
  await signUpAndOnboard(page, { name: `Reconcile ${Date.now().toString(36)}`, currency: 'CHF' });
  const { post, headers } = await apiFor(page);
  const accounts = (await (await post('/api/accounting/account/list', {})).json()).data as { id: number; number: string }[];
  const id = (number: string) => accounts.find((a) => a.number === number)!.id;
  const bank = id('1000');
  const entry = (dateLedger: string, amount: string, description: string) => ({
    data: { dateLedger, description, entryAccounts: [{ account: { id: bank }, amount, direction: 1 }, { account: { id: id('2800') }, amount, direction: -1 }] },
  });
  await post('/api/accounting/entry/insert', entry('2025-11-10', '1000.00', 'Kapitaleinlage bar einbezahlt'));
  await post('/api/accounting/entry/insert', entry('2025-11-20', '250.00', 'Einlage Inhaber'));

  // A payment run of two approved bills.
  const supplier = await (await post('/api/company/insert', { data: { name: 'Muster Lieferant AG', address: { street: 'Musterstrasse', houseNumber: '12', zip: '8000', city: 'Zürich', country: { id: 1 } } } })).json();
  const profile = await (await post('/api/payment-profile/insert', { data: { company: { uuid: supplier.uuid }, account: { id: id('2000') }, type: 1, iban: 'CH5800791123000889012' } })).json();
  const uuids: string[] = [];
  for (const [amount, description] of [['300.00', 'Büromaterial'], ['200.00', 'Toner']]) {
    const created = await (await post('/api/payable/insert', { data: { company: { uuid: supplier.uuid }, companyFinance: { id: profile.id }, date: '2025-11-03', amount, description } })).json();
    await post('/api/payable/update', { uuid: created.uuid, data: { status: 2 } });
    uuids.push(created.uuid);
  }
  const group = await (await post('/api/transaction-group/insert', { payable: { uuids }, executionDate: '2025-11-25' })).json();
  const pain001 = await (await page.request.post('/api/transaction-group/pain001', { headers, data: { id: group.id } })).text();
  const notice = camt054For(pain001, OWN_IBAN, '2025-11-25', 'NTF-2025-11-25');
  expect(notice.payments.map((p) => p.amount).sort()).toEqual(['200.00', '300.00']);

  await page.goto(`/accounting/account/${bank}/reconciliation`);
  await expect(page.getByRole('heading', { name: /^Reconciliation 1000/ })).toBeVisible();
  const figure = async (testId: string) => shownAmount(await page.getByTestId(testId).innerText());
  const upload = (name: string, xml: string) => page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/xml', buffer: Buffer.from(xml) });

  // A file that is not a bank statement: the server's sentence, nothing imported.
  await upload('pain001.xml', pain001);
  await expect(page.getByRole('alert')).toContainText('Could not import the file: This is not a camt.053, camt.054 or pain.002 file: found <pain.001> at line');
  await snap(page, 'bank-reconciliation-01-refused');

  // A test import nobody reconciled is deleted again.
  await upload('test.xml', camt053('STM-TEST', '0.00', '1.00', '2025-10-31', [{ dir: 'CRDT', amount: '1.00', ref: 'T-1', date: '2025-10-15', name: 'Testbank' }]));
  await expect(page.getByText('1 bank transactions imported, 0 matched, 0 imported before.')).toBeVisible();
  const testRow = page.getByRole('row').filter({ hasText: 'STM-TEST' });
  await testRow.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'STM-TEST' })).toHaveCount(0);
  await expect(page.getByText('Every imported bank transaction is matched or booked.')).toBeVisible();

  // The bank pays the run and says so per payment (camt.054): both bills paid, booked on 1000.
  await upload('camt054.xml', notice.xml);
  await expect(page.getByText('2 bank transactions imported, 2 matched, 0 imported before.')).toBeVisible();

  // The month's statement: the deposit booked by hand, the run as one debit with its charges, a late deposit, an unknown debit.
  const statement = camt053('STM-2025-11', '0.00', '704.35', '2025-11-30', [
    { dir: 'CRDT', amount: '1000.00', ref: 'S-1', date: '2025-11-10', name: 'Hans Muster' },
    { dir: 'DBIT', amount: '505.65', ref: 'S-2', date: '2025-11-25', charges: '5.65', details: notice.payments.map((p) => ({ amount: p.amount, e2e: p.e2e })) },
    { dir: 'CRDT', amount: '250.00', ref: 'S-3', date: '2025-11-29', name: 'Hans Muster' },
    { dir: 'DBIT', amount: '40.00', ref: 'S-4', date: '2025-11-30', name: 'Kontoführung' },
  ]);
  await upload('camt053.xml', statement);
  // 1000 and the two payments known, the charges booked; 250 (9 days after its posting) and 40 open.
  await expect(page.getByText('6 bank transactions imported, 4 matched (3 found in the books, 1 booked), 0 imported before.')).toBeVisible();
  await expect.poll(() => figure('summary-statement-closing-balance')).toBe('704.35');
  await expect.poll(() => figure('summary-open')).toBe('210.00');
  await snap(page, 'bank-reconciliation-02-statement-imported');

  // The unknown debit: ignored with a reason, then taken back.
  const debit = () => page.getByRole('row').filter({ hasText: 'Kontoführung' }).first();
  await debit().getByRole('button', { name: 'Ignore…' }).click();
  await page.getByRole('dialog').getByLabel('Reason').fill('Abklärung mit der Bank');
  await snap(page, 'bank-reconciliation-03-ignore');
  await page.getByRole('dialog').getByRole('button', { name: 'Ignore' }).click();
  await expect(page.getByText('Ignored: Abklärung mit der Bank')).toBeVisible();
  await expect.poll(() => figure('summary-ignored')).toBe('-40.00');
  await snap(page, 'bank-reconciliation-04-ignored');
  await page.getByRole('row').filter({ hasText: 'Ignored: Abklärung mit der Bank' }).getByRole('button', { name: 'Un-ignore' }).click();
  await expect(page.getByText('Ignored: Abklärung mit der Bank')).toHaveCount(0);

  // The late deposit: matched by hand to its posting of 20.11. (books nothing).
  await page.getByRole('row').filter({ hasText: 'Hans Muster' }).filter({ hasText: '250,00' }).getByRole('button', { name: 'Match to postings…' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByText('Einlage Inhaber')).toBeVisible();
  await modal.getByRole('row').filter({ hasText: 'Einlage Inhaber' }).getByRole('checkbox').check();
  await expect(modal.getByText('Chosen postings: 250,00 of 250,00')).toBeVisible();
  await snap(page, 'bank-reconciliation-05-match-postings');
  await modal.getByRole('button', { name: 'Match', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The unknown debit turns out to be the account fee: booked against 6940.
  await debit().getByRole('combobox', { name: /^Counter account for / }).click();
  await page.getByRole('option', { name: /^6940 / }).click();
  await debit().getByRole('button', { name: 'Book' }).click();
  await expect(page.getByText('Every imported bank transaction is matched or booked.')).toBeVisible();
  await expect.poll(() => figure('summary-difference')).toBe('0.00');
  await expect.poll(() => figure('summary-open')).toBe('0.00');
  await expect.poll(() => figure('summary-ledger-balance')).toBe('704.35');
  await expect(page.getByTestId('summary-gap-to-previous-statement')).toHaveText('-');
  await expect(page.getByRole('row').filter({ hasText: 'STM-2025-11' })).toContainText('6 (6)');
  await snap(page, 'bank-reconciliation-06-done');

  // Each posting reconciled once: nothing booked twice (1000 + 250 − 300 − 200 − 5.65 − 40).
  await page.goto('/accounting/trial-balance');
  const bankRow = page.getByRole('row').filter({ hasText: /^1000/ }).first();
  await expect(bankRow).toBeVisible();
  const cells = await bankRow.getByRole('cell').allInnerTexts();
  expect(cells.map(shownAmount)).toContain('704.35');
  await snap(page, 'bank-reconciliation-07-trial-balance');
});
