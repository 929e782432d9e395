/**
 * The accounting checks in the request's language (issue 17 §3, src/http/server-texts.ts): names,
 * details and item labels in German, French and Italian with `accept-language`, the values (dates,
 * amounts, account numbers and names, descriptions) unchanged, and the English answer without the
 * header byte for byte what it was. Keys, statuses, links and amounts are the same in every language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChecksReport } from '../../src/modules/accounting/accounting.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { simpleEntry } from './ledger.js';

let server: TestServer;
let wp: InvoicingWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await invoicingWorkplace(server);
});
afterAll(async () => server?.close());

async function checks(language: string | undefined, dateFrom: string, dateTo: string): Promise<ChecksReport> {
  const response = await wp.api.request('POST', '/api/accounting/checks', { dateFrom, dateTo }, language ? { 'accept-language': language } : {});
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

const check = (report: ChecksReport, key: string) => report.checks.find((c) => c.key === key)!;
/** What must not change with the language. */
const shape = (report: ChecksReport) => report.checks.map((c) => ({ key: c.key, status: c.status, items: c.items.map(({ link, amount }) => ({ link, amount })) }));

describe('POST /api/accounting/checks by Accept-Language', () => {
  let refNumber: string;
  let manualId: number;

  beforeAll(async () => {
    const created = await wp.api.post('/api/invoice/insert', { data: invoiceData(wp) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sent = await wp.api.post('/api/invoice/status/change', { uuid: created.body.uuid, status: 2, ledgerDate: '2025-05-02' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    refNumber = sent.body.refNumber;
    const manual = await wp.api.post('/api/accounting/entry/insert', simpleEntry('2025-05-20', await wp.account('1100'), await wp.account('3200'), '300.00', 'Forderung von Hand'));
    expect(manual.status).toBe(200);
    manualId = manual.body.id;
  });

  it('answers in English without the header, as before', async () => {
    const report = await checks(undefined, '2025-05-01', '2025-05-31');
    expect(check(report, 'trial-balance')).toMatchObject({ name: 'The trial balance sums to zero (debit total = credit total).' });
    expect(check(report, 'receivables').detail).toContain("Postings on 1100 that no invoice made add up to CHF 300.00 (1 posting), which is the difference");
    expect(check(report, 'receivables').items[0]!.label).toBe('Entry ' + manualId + ' of 20.05.2025 (manual): "Forderung von Hand"');
    expect(check(report, 'entries-balanced').detail).toBe('2 entries with 5 postings from 01.05.2025 to 31.05.2025: each has debit = credit and at least two postings.');
    expect(await checks('en-GB', '2025-05-01', '2025-05-31')).toEqual(report);
  });

  it('answers in German, French and Italian, keeping keys, statuses, links, amounts and values', async () => {
    const english = await checks(undefined, '2025-05-01', '2025-05-31');
    const german = await checks('de-CH', '2025-05-01', '2025-05-31');
    const french = await checks('fr-CH', '2025-05-01', '2025-05-31');
    const italian = await checks('it-CH', '2025-05-01', '2025-05-31');
    for (const report of [german, french, italian]) expect(shape(report)).toEqual(shape(english));

    // German: the failed receivables with its numbers, the data (account name, description, company) untranslated.
    const receivables = check(german, 'receivables');
    expect(receivables.name).toBe('Die Debitoren stimmen mit den offenen Rechnungen überein.');
    expect(receivables.detail).toBe(
      '1100 Forderungen aus Lieferungen und Leistungen: Sollsaldo CHF 569.55 am 31.05.2025, aber die damals offenen Belege (1 Rechnung) ergeben CHF 269.55: ' +
        'eine Differenz von CHF 300.00. Buchungszeilen auf 1100, die keine Rechnung erzeugt hat, ergeben CHF 300.00 (1 Buchungszeile), genau die Differenz; ' +
        'sie sind zuerst aufgeführt, danach die offenen Rechnungen.',
    );
    expect(receivables.items.map((item) => item.label)).toEqual([
      `Buchung ${manualId} vom 20.05.2025 (manual): "Forderung von Hand"`,
      expect.stringMatching(new RegExp(`^Rechnung ${refNumber} .+ vom \\d\\d\\.\\d\\d\\.\\d{4}$`)),
    ]);
    expect(check(german, 'entries-balanced').detail).toBe('2 Buchungen mit 5 Buchungszeilen vom 01.05.2025 bis 31.05.2025: jede hat Soll = Haben und mindestens zwei Buchungszeilen.');
    expect(check(german, 'payables').detail).toBe(
      '2000 Verbindlichkeiten aus Lieferungen und Leistungen: Saldo CHF 0.00 am 31.05.2025, und keine Lieferantenrechnung ist zu diesem Zeitpunkt offen.',
    );
    // French: the trial balance and a count of zero (singular in French).
    expect(check(french, 'trial-balance')).toMatchObject({
      name: 'La balance de vérification est équilibrée (total débit = total crédit).',
      detail: 'Au 31.05.2025, le total débit CHF 569,55 est égal au total crédit.',
    });
    expect(check(french, 'vat').detail).toContain('TVA des pièces comptabilisées (0 facture fournisseur ou note de frais) : CHF 0,00.');
    expect(check(french, 'receivables').items[0]!.label).toBe(`Écriture ${manualId} du 20.05.2025 (manual) : "Forderung von Hand"`);
    // Italian.
    expect(check(italian, 'entries-balanced').detail).toBe(
      '2 registrazioni con 5 righe di registrazione dal 01.05.2025 al 31.05.2025: ognuna ha dare = avere e almeno due righe di registrazione.',
    );
    // No name or detail is left in English.
    for (const report of [german, french, italian]) {
      report.checks.forEach((c, index) => {
        expect(c.name, c.key).not.toBe(english.checks[index]!.name);
        expect(c.detail, c.key).not.toBe(english.checks[index]!.detail);
      });
    }
  });

  it("the closing wizard runs them in the request's language too", async () => {
    const german = await wp.api.request('POST', '/api/accounting/closing/checks', { year: 2025 }, { 'accept-language': 'de' });
    expect(german.status, JSON.stringify(german.body)).toBe(200);
    expect(check(german.body, 'receivables')).toMatchObject({ status: 'failed', name: 'Die Debitoren stimmen mit den offenen Rechnungen überein.' });
    expect(check(german.body, 'trial-balance').detail).toBe('Am 31.12.2025 entspricht das Soll-Total CHF 569.55 dem Haben-Total.');
    const english = await wp.api.post('/api/accounting/closing/checks', { year: 2025 });
    expect(check(english.body, 'trial-balance').detail).toBe('At 31.12.2025 the debit total CHF 569.55 equals the credit total.');
  });
});
