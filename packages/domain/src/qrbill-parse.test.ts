import { describe, expect, it } from 'vitest';
import ex1 from '../../../fixtures/qrbill/ig23_ex1_qrr.txt?raw';
import ex2 from '../../../fixtures/qrbill/ig23_ex2_qrr_billinfo_ebill.txt?raw';
import ex3 from '../../../fixtures/qrbill/ig23_ex3_non_no_amount_no_debtor.txt?raw';
import ex4 from '../../../fixtures/qrbill/ig23_ex4_scor_INVALID_CHECKDIGIT_in_spec.txt?raw';
import ex5 from '../../../fixtures/qrbill/ig23_ex5_scor_creditor_LI.txt?raw';
import ex6 from '../../../fixtures/qrbill/ig23_ex6_scor_debtor_DE.txt?raw';
import { parseQrBillPayload } from './qrbill-parse.js';
import { validateQrBill } from './qrbill.js';

// The domain never touches Node: Vite's ?raw import reads the IG fixtures as text.
const fixtures: Record<string, string> = {
  'ig23_ex1_qrr.txt': ex1, 'ig23_ex2_qrr_billinfo_ebill.txt': ex2, 'ig23_ex3_non_no_amount_no_debtor.txt': ex3,
  'ig23_ex4_scor_INVALID_CHECKDIGIT_in_spec.txt': ex4, 'ig23_ex5_scor_creditor_LI.txt': ex5, 'ig23_ex6_scor_debtor_DE.txt': ex6,
};
const fixture = (name: string) => fixtures[name]!;

function parsed(name: string) {
  const result = parseQrBillPayload(fixture(name));
  if (!result.ok) throw new Error(result.error);
  return result.bill;
}

describe('parseQrBillPayload (SIX IG v2.3 Annex A examples)', () => {
  it('example 1: QR-IBAN, QR reference, amount, debtor', () => {
    const bill = parsed('ig23_ex1_qrr.txt');
    expect(bill.iban).toBe('CH6431961000004421557');
    expect(bill.creditor).toEqual({
      type: 'S', name: 'Max Muster & Söhne (sample company)', street: 'Musterstrasse', buildingNumber: '123',
      zip: '8000', city: 'Seldwyla', country: 'CH',
    });
    expect(bill.amount).toBe('50.00');
    expect(bill.currency).toBe('CHF');
    expect(bill.debtor?.name).toBe('Simon Muster');
    expect(bill.referenceType).toBe('QRR');
    expect(bill.reference).toBe('000008207791225857421286694');
    expect(bill.message).toBe('Payment of travel');
    expect(bill.billInformation).toBe('');
  });

  it('example 2: bill information and an alternative scheme', () => {
    const bill = parsed('ig23_ex2_qrr_billinfo_ebill.txt');
    expect(bill.reference).toBe('210000000003139471430009017');
    expect(bill.message).toBe('Order from 15.10.2020');
    expect(bill.billInformation).toBe('//S1/10/1234/11/201021/30/102673386/32/7.7/40/0:30');
    expect(bill.alternativeSchemes).toEqual(['eBill/B/simon.muster@example.com']);
  });

  it('example 3: no reference, no amount, no debtor', () => {
    const bill = parsed('ig23_ex3_non_no_amount_no_debtor.txt');
    expect(bill.referenceType).toBe('NON');
    expect(bill.reference).toBe('');
    expect(bill.amount).toBeUndefined();
    expect(bill.debtor).toBeUndefined();
  });

  it('example 4 parses, but its creditor reference fails the ISO 11649 check', () => {
    const bill = parsed('ig23_ex4_scor_INVALID_CHECKDIGIT_in_spec.txt');
    expect(bill.referenceType).toBe('SCOR');
    expect(bill.reference).toBe('RF720191230100405JSH0438');
    const problems = validateQrBill({
      account: bill.iban, creditor: bill.creditor, amount: bill.amount, currency: bill.currency, reference: bill.reference,
    });
    expect(problems.reference).toBeDefined();
  });

  it('examples 5 and 6: creditor reference, creditor in LI, debtor in DE', () => {
    const five = parsed('ig23_ex5_scor_creditor_LI.txt');
    expect(five.creditor.country).toBe('LI');
    expect(five.amount).toBe('199.95');
    expect(five.reference).toBe('RF18539007547034');
    const six = parsed('ig23_ex6_scor_debtor_DE.txt');
    expect(six.debtor?.country).toBe('DE');
    for (const bill of [five, six]) {
      expect(validateQrBill({
        account: bill.iban, creditor: bill.creditor, amount: bill.amount, currency: bill.currency, reference: bill.reference,
      })).toEqual({});
    }
  });

  it('accepts CR LF line ends and a combined (K) address', () => {
    const lines = fixture('ig23_ex1_qrr.txt').split('\n');
    lines.splice(4, 7, 'K', 'Muster AG', 'Bahnhofstrasse 1', '8001 Zürich', '', '', 'CH');
    const result = parseQrBillPayload(lines.join('\r\n'));
    expect(result.ok && result.bill.creditor).toEqual({
      type: 'K', name: 'Muster AG', street: 'Bahnhofstrasse 1', buildingNumber: '', zip: '', city: '8001 Zürich', country: 'CH',
    });
  });

  it('refuses what is not an SPC payload and names the wrong element', () => {
    const text = fixture('ig23_ex1_qrr.txt');
    expect(parseQrBillPayload('https://example.com')).toEqual({ ok: false, error: 'not a Swiss QR-bill (QRType must be SPC)' });
    expect(parseQrBillPayload(text.replace('0200', '0100'))).toMatchObject({ ok: false, error: /version/ });
    expect(parseQrBillPayload(text.replace('CH6431961000004421557', 'CH6431961000004421558'))).toMatchObject({ ok: false, error: /IBAN/ });
    expect(parseQrBillPayload(text.replace('50.00', '50,00'))).toMatchObject({ ok: false, error: /amount/ });
    expect(parseQrBillPayload(text.replace('\nCHF\n', '\nUSD\n'))).toMatchObject({ ok: false, error: /currency/ });
    expect(parseQrBillPayload(text.replace('QRR', 'XYZ'))).toMatchObject({ ok: false, error: /reference type/ });
    expect(parseQrBillPayload(text.replace('EPD', 'END'))).toMatchObject({ ok: false, error: /trailer/ });
    expect(parseQrBillPayload(text.split('\n').slice(0, 20).join('\n'))).toMatchObject({ ok: false, error: /incomplete/ });
  });
});
