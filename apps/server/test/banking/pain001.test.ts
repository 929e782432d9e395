/**
 * pain.001.001.09.ch.03 generator: every file validated against the official SPS XSD with
 * xmllint-wasm, plus the SPS rules the XSD cannot express (payment types, character set, blocks).
 */
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { sumMoney, toFixedAmount } from '@bilan/domain';
import { buildPain001, classifyPayment, executionDateOfBlock, Pain001Error, spsId, spsText, type Pain001Payment } from '../../src/lib/pain001.js';
import { isoFixture, xsdErrors } from './xsd.js';

export const QR_IBAN = 'CH4431999123000889012';
export const QR_REF = '210000000003139471430009017';
export const IBAN = 'CH5800791123000889012';
export const DEBTOR_IBAN = 'CH9300762011623852957';
export const SCOR = 'RF18539007547034';

const debtor = { name: 'Muster AG', iban: DEBTOR_IBAN, bic: 'UBSWCHZH80A' };
const creditor = (iban: string, name = 'Max Muster & Söhne') => ({
  name,
  iban,
  address: { street: 'Musterstrasse', buildingNumber: '123', postCode: '8000', town: 'Seldwyla', country: 'CH' },
});

const payment = (over: Partial<Pain001Payment>): Pain001Payment => ({
  endToEndId: 'BILL-1',
  executionDate: '2025-11-25',
  debtor,
  creditor: creditor(IBAN),
  amount: '100.00',
  currency: 'CHF',
  ...over,
});

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ['PmtInf', 'CdtTrfTxInf', 'Othr'].includes(name) });
const parse = (xml: string) => parser.parse(xml).Document.CstmrCdtTrfInitn;

const mixed: Pain001Payment[] = [
  payment({ endToEndId: 'BILL-1', creditor: creditor(QR_IBAN), reference: QR_REF, amount: '1000', message: 'Order from 15.10.2020' }),
  payment({ endToEndId: 'BILL-2', reference: SCOR, amount: '199.95' }),
  payment({ endToEndId: 'BILL-3', amount: '0.05', message: 'Rechnung 7 <Juli> & "mehr"' }),
  payment({
    endToEndId: 'BILL-4',
    creditor: { name: 'Beispiel GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', address: { street: 'Hauptstrasse', buildingNumber: '1', postCode: '78462', town: 'Konstanz', country: 'DE' } },
    currency: 'EUR',
    amount: '149.80',
    message: 'Invoice 2025-117',
  }),
  payment({ endToEndId: 'BILL-5', executionDate: '2025-11-30', amount: '12.30' }),
  payment({ endToEndId: 'BILL-6', debtor: { name: 'Muster AG', iban: 'CH5604835012345678009', bic: null }, amount: '7.70' }),
];

describe('the validator', () => {
  it('accepts the SPS sample and refuses a broken file', async () => {
    expect(await xsdErrors(isoFixture('samples/pain.001.001.09.ch.03_qrr_scor_sepa_example.xml'))).toEqual([]);
    const broken = isoFixture('samples/pain.001.001.09.ch.03_qrr_scor_sepa_example.xml').replace('<NbOfTxs>3</NbOfTxs>', '<NbOfTxs>three</NbOfTxs>');
    expect((await xsdErrors(broken)).length).toBeGreaterThan(0);
  });
});

describe('buildPain001', () => {
  it('writes QR-bill, creditor reference, domestic and SEPA payments that the SPS schema accepts', async () => {
    const result = buildPain001({ messageId: 'c1b6f7e2-9a1d-4b8e-8a55-0f6e1a2b3c4d', createdAt: new Date('2025-11-24T10:15:00Z'), initiatingParty: 'Muster AG', payments: mixed });
    expect(await xsdErrors(result.xml)).toEqual([]);
    // Also valid plain ISO pain.001.001.09.
    expect(await xsdErrors(result.xml, 'pain.001.001.09.xsd')).toEqual([]);
    expect(result.kinds).toEqual(['qrr', 'scor', 'iban', 'sepa', 'iban', 'iban']);
    expect(result.numberOfTransactions).toBe(6);
    expect(result.controlSum).toBe('1369.80');

    const doc = parse(result.xml);
    expect(doc.GrpHdr).toMatchObject({ MsgId: 'c1b6f7e2-9a1d-4b8e-8a55-0f6e1a2b3c4d'.slice(0, 35), NbOfTxs: '6', CtrlSum: '1369.80', CreDtTm: '2025-11-24T10:15:00' });
    // One block per execution date and debtor account: (25th, UBS), (30th, UBS), (25th, other account).
    expect(doc.PmtInf).toHaveLength(3);
    const [first, second, third] = doc.PmtInf;
    expect(first).toMatchObject({ NbOfTxs: '4', CtrlSum: '1349.80', ReqdExctnDt: { Dt: '2025-11-25' }, DbtrAcct: { Id: { IBAN: DEBTOR_IBAN } } });
    expect(second).toMatchObject({ NbOfTxs: '1', CtrlSum: '12.30', ReqdExctnDt: { Dt: '2025-11-30' } });
    expect(third).toMatchObject({ NbOfTxs: '1', CtrlSum: '7.70', DbtrAgt: { FinInstnId: { ClrSysMmbId: { ClrSysId: { Cd: 'CHBCC' }, MmbId: '04835' } } } });
    // Each block's and the file's sums equal the instructed amounts.
    const all = doc.PmtInf.flatMap((block: any) => block.CdtTrfTxInf);
    expect(all.map((tx: any) => tx.Amt.InstdAmt['#text'])).toEqual(['1000.00', '199.95', '0.05', '149.80', '12.30', '7.70']);
    for (const block of doc.PmtInf) {
      expect(toFixedAmount(sumMoney(block.CdtTrfTxInf.map((tx: any) => tx.Amt.InstdAmt['#text'])))).toBe(block.CtrlSum);
    }

    const [qrr, scor, plain, sepa] = first.CdtTrfTxInf;
    expect(qrr.RmtInf.Strd).toEqual({ CdtrRefInf: { Tp: { CdOrPrtry: { Prtry: 'QRR' } }, Ref: QR_REF }, AddtlRmtInf: 'Order from 15.10.2020' });
    expect(qrr.CdtrAcct.Id.IBAN).toBe(QR_IBAN);
    expect(qrr.PmtTpInf).toBeUndefined();
    expect(scor.RmtInf.Strd.CdtrRefInf).toEqual({ Tp: { CdOrPrtry: { Cd: 'SCOR' } }, Ref: SCOR });
    expect(plain.RmtInf).toEqual({ Ustrd: 'Rechnung 7 <Juli> & "mehr"' });
    expect(plain.Cdtr).toEqual({
      Nm: 'Max Muster & Söhne',
      PstlAdr: { StrtNm: 'Musterstrasse', BldgNb: '123', PstCd: '8000', TwnNm: 'Seldwyla', Ctry: 'CH' },
    });
    expect(sepa).toMatchObject({ PmtTpInf: { SvcLvl: { Cd: 'SEPA' } }, ChrgBr: 'SLEV', CdtrAgt: { FinInstnId: { BICFI: 'COBADEFFXXX' } } });
    expect(sepa.Amt.InstdAmt['@_Ccy']).toBe('EUR');
    expect(result.xml).toContain('Rechnung 7 &lt;Juli&gt; &amp; "mehr"');
  });

  it('keeps every text in the SPS character set and identifiers in their narrower set', async () => {
    const result = buildPain001({
      messageId: 'Lohn/Löhne #12 ✓ Ω',
      createdAt: new Date('2025-11-24T10:15:00Z'),
      initiatingParty: 'Bäckerei Ωmega 🥐',
      payments: [payment({ endToEndId: 'Rg#77 ✓', creditor: creditor(IBAN, 'Ǆemal Łukasz ☕ Şahin'), message: 'Danke 😀\nZeile 2' })],
    });
    expect(await xsdErrors(result.xml)).toEqual([]);
    const doc = parse(result.xml);
    expect(doc.GrpHdr.MsgId).toBe('Lohn/Lohne 12 . .');
    expect(doc.GrpHdr.InitgPty.Nm).toBe('Bäckerei .mega .');
    const tx = doc.PmtInf[0].CdtTrfTxInf[0];
    expect(tx.PmtId.EndToEndId).toBe('Rg77 .');
    // Ǆ decomposes to D + Ž (both Latin Extended-A), Ł stays, ☕ becomes '.', Ş (U+015E) stays.
    expect(tx.Cdtr.Nm).toBe('DŽemal Łukasz . Şahin');
    expect(tx.RmtInf.Ustrd).toBe('Danke . Zeile 2');
    expect(spsText('€ Ș ș Ț ț', 70)).toBe('€ Ș ș Ț ț');
    expect(spsText('x'.repeat(80), 70)).toHaveLength(70);
    expect(spsId('✓✓')).toBe('..');
    expect(spsId('##')).toBe('NOTPROVIDED');
  });

  it.each([
    [{ creditor: creditor(QR_IBAN) }, 'reference', 'a QR-IBAN needs a QR reference (27 digits)'],
    [{ creditor: creditor(QR_IBAN), reference: SCOR }, 'reference', 'a QR-IBAN needs a QR reference (27 digits)'],
    [{ reference: QR_REF }, 'reference', 'a QR reference needs a QR-IBAN'],
    [{ reference: '12345' }, 'reference', 'reference is neither a QR reference nor a creditor reference (RF…)'],
    [{ creditor: creditor('CH5800791123000889013') }, 'creditor.iban', 'The IBAN is wrongly formatted'],
    [{ debtor: { ...debtor, iban: 'CH00' } }, 'debtor.iban', 'The IBAN is wrongly formatted'],
    [{ creditor: { ...creditor(IBAN), bic: 'nope' } }, 'creditor.bic', 'BIC invalid'],
    [{ creditor: { ...creditor(IBAN), name: ' ' } }, 'creditor.name', 'This field must be given'],
    [{ amount: '0' }, 'amount', 'amount must be between 0.01 and 999999999.99'],
    [{ amount: '-5' }, 'amount', 'amount must be between 0.01 and 999999999.99'],
    [{ amount: '1.005' }, 'amount', 'amount must be a number with at most 2 decimals'],
    [{ amount: 'abc' }, 'amount', 'amount must be a number with at most 2 decimals'],
    [{ currency: 'USD' as 'CHF' }, 'currency', 'only CHF and EUR can be paid'],
    [{ creditor: creditor('DE89370400440532013000') }, 'creditor.iban', 'payments abroad are supported as SEPA only (EUR to an IBAN of a SEPA country)'],
    [{ executionDate: '25.11.2025' }, 'executionDate', 'date must be YYYY-MM-DD'],
  ])('refuses %j on %s', (over, field, message) => {
    expect(() => classifyPayment(payment(over))).toThrowError(new Pain001Error(field, message));
    expect(() => buildPain001({ messageId: 'M', createdAt: new Date(), initiatingParty: 'A', payments: [payment({}), payment(over)] })).toThrowError(
      `payments.1.${field}: ${message}`,
    );
  });

  it('carries the creditor reference of a SEPA payment structured (SCOR), and the message otherwise (SPS 2025)', async () => {
    const german = { name: 'Beispiel GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', address: { street: 'Hauptstrasse', buildingNumber: '1', postCode: '78462', town: 'Konstanz', country: 'DE' } };
    const result = buildPain001({
      messageId: 'SEPA-RF',
      createdAt: new Date('2025-11-24T10:15:00Z'),
      initiatingParty: 'Muster AG',
      payments: [
        payment({ endToEndId: 'EUR-1', creditor: german, currency: 'EUR', amount: '149.80', reference: 'RF18 5390 0754 7034', message: 'Invoice 2025-117' }),
        payment({ endToEndId: 'EUR-2', creditor: { ...german, iban: 'FR1420041010050500013M02606', bic: null }, currency: 'EUR', amount: '20.00', message: 'Facture 9' }),
      ],
    });
    expect(result.kinds).toEqual(['sepa', 'sepa']);
    expect(await xsdErrors(result.xml)).toEqual([]);
    expect(await xsdErrors(result.xml, 'pain.001.001.09.xsd')).toEqual([]);
    const [withReference, withMessage] = parse(result.xml).PmtInf[0].CdtTrfTxInf;
    expect(withReference.RmtInf).toEqual({ Strd: { CdtrRefInf: { Tp: { CdOrPrtry: { Cd: 'SCOR' } }, Ref: SCOR } } });
    expect(withReference.PmtTpInf).toEqual({ SvcLvl: { Cd: 'SEPA' } });
    expect(withMessage.RmtInf).toEqual({ Ustrd: 'Facture 9' });
    // A QR reference is no SEPA reference.
    expect(() => classifyPayment(payment({ creditor: german, currency: 'EUR', reference: QR_REF }))).toThrowError(new Pain001Error('reference', 'a QR reference needs a QR-IBAN'));
  });

  it('names each block by its execution date (PmtInfId …-YYYYMMDD-B<n>) so a pain.002 block finds its bills', () => {
    const result = buildPain001({
      messageId: 'c1b6f7e29a1d4b8e8a550f6e1a2b3c4d',
      createdAt: new Date('2025-11-24T10:15:00Z'),
      initiatingParty: 'Muster AG',
      payments: [payment({ executionDate: '2025-11-25' }), payment({ endToEndId: 'BILL-2', executionDate: '2025-11-30' })],
    });
    const ids = parse(result.xml).PmtInf.map((block: any) => block.PmtInfId);
    expect(ids).toEqual(['c1b6f7e29a1d4b8e8a55-20251125-B1', 'c1b6f7e29a1d4b8e8a55-20251130-B2']);
    expect(ids.map(executionDateOfBlock)).toEqual(['2025-11-25', '2025-11-30']);
    expect(executionDateOfBlock('B1')).toBeNull();
  });

  it('accepts a QR-IBAN payment in EUR and a creditor reference with spaces', () => {
    expect(classifyPayment(payment({ creditor: creditor(QR_IBAN), reference: '21 00000 00003 13947 14300 09017', currency: 'EUR' }))).toBe('qrr');
    expect(classifyPayment(payment({ reference: 'RF18 5390 0754 7034' }))).toBe('scor');
  });

  it('counts and sums any list of payments exactly, and the schema accepts the file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 99_999_999_999 }), fc.constantFrom('2025-01-31', '2025-02-01'), fc.boolean()), { minLength: 1, maxLength: 12 }),
        async (rows) => {
          const payments = rows.map(([cents, date, qr], i) =>
            payment({
              endToEndId: `B${i}`,
              executionDate: date,
              amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
              ...(qr ? { creditor: creditor(QR_IBAN), reference: QR_REF } : {}),
            }),
          );
          const result = buildPain001({ messageId: 'P', createdAt: new Date('2025-01-01T00:00:00Z'), initiatingParty: 'A', payments });
          const doc = parse(result.xml);
          expect(doc.GrpHdr.NbOfTxs).toBe(String(rows.length));
          expect(doc.GrpHdr.CtrlSum).toBe(toFixedAmount(sumMoney(payments.map((p) => p.amount))));
          expect(doc.PmtInf).toHaveLength(new Set(rows.map((r) => r[1])).size);
          expect(await xsdErrors(result.xml)).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });
});
