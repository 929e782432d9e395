/**
 * The import refusals in the request's language (issue 17 §3, src/http/message-catalog.ts): a
 * broken ISO 20022 bank file (camt.053), a payroll file, an invoice import (its `error`, `fields`
 * and per-row `rows`) and a company import answer in German or French with `accept-language`, the
 * element names, codes and values kept, and in the unchanged English without the header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkplace, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';
import { payablesWorkplace, type PayablesWorkplace } from '../payables/setup.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const asked = (language?: string): Record<string, string> => (language ? { 'accept-language': language } : {});
const OWN_IBAN = 'CH9300762011623852957';

/** A camt.053.001.08 of our account: OPBD `opening`, one booked credit of 10.00, CLBD `closing`. */
function camt053(id: string, opening: string, closing: string, version = '08'): string {
  const bal = (type: string, amount: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-11-30</Dt></Dt></Bal>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt>
<GrpHdr><MsgId>${id}</MsgId><CreDtTm>2025-11-30T18:00:00</CreDtTm></GrpHdr>
<Stmt><Id>${id}</Id><Acct><Id><IBAN>${OWN_IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>${bal('OPBD', opening)}${bal('CLBD', closing)}
<Ntry><Amt Ccy="CHF">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2025-11-28</Dt></BookgDt><ValDt><Dt>2025-11-28</Dt></ValDt><AcctSvcrRef>${id}-1</AcctSvcrRef>
<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
}

describe('bank file refusals by Accept-Language', () => {
  let w: PayablesWorkplace;
  beforeAll(async () => {
    w = await payablesWorkplace(server);
  });
  const send = (xml: string, language?: string) => w.api.request('POST', '/api/banking/integrations/transactions', xml, { 'content-type': 'application/xml', ...asked(language) });

  it('answers a camt.053 that does not add up, a broken one, an unknown version and a pain.001 in German and French, English without the header', async () => {
    const sums = camt053('STM-L1', '100.00', '1.00');
    const english = await send(sums);
    expect(english.status).toBe(400);
    expect(english.body.error).toBe('The statement STM-L1 does not add up: opening balance 100.00 + booked entries 10.00 = 110.00, but its closing balance is 1.00 (-109.00 apart)');
    const german = await send(sums, 'de-CH');
    expect(german.status).toBe(400);
    expect(german.body.fields.file).toBe('Der Kontoauszug STM-L1 geht nicht auf: Anfangssaldo 100.00 + gebuchte Bewegungen 10.00 = 110.00, aber sein Schlusssaldo ist 1.00 (Differenz -109.00)');
    expect(german.body.error).toBe(german.body.fields.file);
    const french = await send(sums, 'fr-CH');
    expect(french.body.error).toBe(
      "Le relevé STM-L1 ne concorde pas : solde d'ouverture 100.00 + mouvements comptabilisés 10.00 = 110.00, mais son solde de clôture est 1.00 (écart de -109.00)",
    );

    const broken = camt053('STM-L2', '0', '10.00').replace('</Stmt>', '');
    expect((await send(broken)).body.error).toMatch(/^This camt\.053 file is broken: it is not well-formed XML/);
    expect((await send(broken, 'de')).body.fields.file).toMatch(/^Diese camt\.053-Datei ist beschädigt: sie ist kein wohlgeformtes XML/);
    expect((await send(broken, 'fr')).body.fields.file).toMatch(/^Ce fichier camt\.053 est endommagé : ce n'est pas du XML bien formé/);

    const v99 = await send(camt053('STM-L3', '0', '10.00', '99'), 'de');
    expect(v99.body.fields.file).toBe('Diese camt.053-Datei hat die Version .001.99; Bilan liest camt.053 nur in den Versionen .001.04 und .001.08');
    const pain = '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>';
    expect((await send(pain, 'de')).body.fields.file).toBe('Dies ist keine camt.053-, camt.054- oder pain.002-Datei: <pain.001> auf Zeile 2 gefunden');
    expect((await send(pain, 'it')).body.fields.file).toBe('Questo non è un file camt.053, camt.054 o pain.002: trovato <pain.001> alla riga 2');
    expect((await send(pain)).body.fields.file).toBe('This is not a camt.053, camt.054 or pain.002 file: found <pain.001> at line 2');
  });
});

describe('payroll file refusals by Accept-Language', () => {
  let wp: Workplace;
  beforeAll(async () => {
    wp = await createWorkplace(server);
  });
  const file = [
    'Periode;Mitarbeiter;Lohnart;Konto;Betrag',
    '01.2026;Anna Muster;1000;;7200.00', // fine
    '01.2026;Anna Muster;9999;;50.00', // line 3: unknown wage type
    '13.2026;Beat Keller;1000;;6500.00', // line 4: no month 13
    '02.2026;Beat Keller;1000;;65,00.0', // line 5: not an amount
    '02.2026;Beat Keller;;4711;10.00', // line 6: no account 4711
  ].join('\n');
  const send = (content: string, language?: string) => wp.api.request('POST', '/api/salary/import/preview', { file: { name: 'lohn.csv', content } }, asked(language));

  it('answers the row errors and the unknown accounts in German, the combined error included', async () => {
    const english = await send(file);
    expect(english.status).toBe(400);
    expect(english.body.error).toMatch(/^could not map account 4711; line 3, column wagetype: unknown wage type "9999"/);
    const german = await send(file, 'de-CH');
    expect(german.status).toBe(400);
    expect(german.body.fields).toMatchObject({
      account: 'Konto 4711 konnte nicht zugeordnet werden',
      'line 3.wagetype': 'unbekannte Lohnart "9999": fügen Sie sie der Zuordnung hinzu oder geben Sie das Soll- und das Habenkonto der Zeile an',
      'line 4.period': '"13.2026": Periode JJJJ-MM (oder MM.JJJJ) erwartet',
      'line 5.amount': '"65,00.0" ist kein Betrag mit höchstens 2 Dezimalstellen wie 6500.00',
    });
    expect(german.body.error).toBe(
      'Konto 4711 konnte nicht zugeordnet werden; Zeile 3, Spalte wagetype: unbekannte Lohnart "9999": fügen Sie sie der Zuordnung hinzu oder geben Sie das Soll- und das Habenkonto der Zeile an; ' +
        'Zeile 4, Spalte period: "13.2026": Periode JJJJ-MM (oder MM.JJJJ) erwartet; Zeile 5, Spalte amount: "65,00.0" ist kein Betrag mit höchstens 2 Dezimalstellen wie 6500.00; ' +
        'Zeile 6, Spalte amount: Buchung 2026-02 ist nicht ausgeglichen: Soll minus Haben ist 10.00 (einseitige Zeilen: Zeilen 6)',
    );
  });

  it('answers a wrong header in German and French', async () => {
    const unknown = 'Periode;Mitarbeiter;Farbe;Betrag\n01.2026;A;rot;1.00';
    expect((await send(unknown)).body.fields['line 1']).toMatch(/^unknown column "Farbe"; expected columns such as /);
    const german = await send(unknown, 'de');
    expect(german.body.fields['line 1']).toMatch(/^unbekannte Spalte "Farbe"; erwartet werden Spalten wie period, /);
    expect(german.body.error).toMatch(/^Zeile 1: unbekannte Spalte "Farbe"; erwartet werden Spalten wie /);
    const missing = await send('Periode;Mitarbeiter;Betrag\n01.2026;A;1.00', 'fr');
    expect(missing.body.error).toBe('ligne 1 : colonne manquante wagetype (ou account, ou debit et credit)');
  });
});

describe('invoice and company import refusals by Accept-Language', () => {
  let w: InvoicingWorkplace;
  beforeAll(async () => {
    w = await invoicingWorkplace(server);
  });
  const line = (over: Record<string, unknown> = {}) => ({ invoice: 'A', company: 'Simon Muster AG', dateInvoice: '2025-04-01', name: 'Design', amount: '1', price: '100', ...over });
  const rows = [line(), line({ dateInvoice: '2025-04-02' }), line({ invoice: 'B', company: 'Nobody Ltd' }), line({ invoice: 'E', account: '9999' }), line({ invoice: 'F', discount: '120' })];

  it('answers the invoice import rows, fields and error in German, English without the header', async () => {
    const english = await w.api.request('POST', '/api/invoice/import', { data: rows });
    expect(english.status).toBe(400);
    expect(english.body.error).toBe('4 problems, nothing was imported; row 2: dateInvoice: differs from row 1 of invoice A');
    expect(english.body.rows[1]).toEqual({ row: 3, field: 'company', message: 'no customer with this name' });
    const german = await w.api.request('POST', '/api/invoice/import', { data: rows }, asked('de-CH'));
    expect(german.status).toBe(400);
    expect(german.body.error).toBe('4 Fehler, nichts wurde importiert; Zeile 2: dateInvoice: weicht von Zeile 1 der Rechnung A ab');
    expect(german.body.rows).toEqual([
      { row: 2, field: 'dateInvoice', message: 'weicht von Zeile 1 der Rechnung A ab' },
      { row: 3, field: 'company', message: 'kein Kunde mit diesem Namen' },
      { row: 4, field: 'account', message: 'kein Konto 9999' },
      { row: 5, field: 'discount', message: 'der Rabatt darf 100 % nicht übersteigen' },
    ]);
    expect(german.body.fields).toMatchObject({ 'data.2.company': 'kein Kunde mit diesem Namen', 'data.3.account': 'kein Konto 9999' });
    const french = await w.api.request('POST', '/api/invoice/import', { data: [line({ company: undefined })] }, asked('fr'));
    expect(french.body.rows).toEqual([{ row: 1, field: 'company', message: 'indiquez le client : son nom, son IDE ou son uuid' }]);
  });

  it('answers the company import rows in German', async () => {
    const bad = 'name,uid,street,zip,city,country\nGood AG,,,,,\n,CHE-123.456.789,Weg,8000,Zürich,CH\nX,,Weg,,Zürich,Narnia\n';
    const english = await w.api.request('POST', '/api/company/import', { data: bad });
    expect(english.body.fields['line 4.country']).toBe('country "Narnia" unknown');
    const german = await w.api.request('POST', '/api/company/import', { data: bad }, asked('de'));
    expect(german.status).toBe(400);
    expect(german.body.fields).toEqual({
      'line 3.name': 'Dieses Feld muss angegeben werden',
      'line 3.uid': 'UID ungültig',
      'line 4.zip': 'Dieses Feld muss angegeben werden',
      'line 4.country': 'Land "Narnia" unbekannt',
    });
    expect(german.body.error).toBe(
      'Zeile 3, Spalte name: Dieses Feld muss angegeben werden; Zeile 3, Spalte uid: UID ungültig; Zeile 4, Spalte zip: Dieses Feld muss angegeben werden; Zeile 4, Spalte country: Land "Narnia" unbekannt',
    );
  });
});
