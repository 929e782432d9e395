import { describe, expect, it } from 'vitest';
import { encodeSwicoS1, parseSwicoS1, swicoDueDate, swicoNumber, swicoVatAmount } from './swico.js';

// The four examples of SIX IG QR-bill v2.3 Annex D, Table 31, with their amounts from the table.
const EXAMPLES = {
  one: '//S1/10/10201409/11/190512/20/1400.000-53/30/106017086/31/180508/32/7.7/40/2:10;0:30',
  two: '//S1/10/10104/11/180228/30/395856455/31/180226180227/32/3.7:400.19;7.7:553.39;0:14/40/0:30',
  three: '//S1/10/4031202511/11/180107/20/61257233.4/30/105493567/32/8:49.82/33/2.5:14.85/40/0:30',
  four: '//S1/10/X.66711\\/8824/11/200712/20/MW-2020-04/30/107978798/32/2.5:117.22/40/3:5;1.5:20;1:40;0:60',
};

describe('parseSwicoS1 (IG v2.3 Annex D, Table 31)', () => {
  it('example 1: a single VAT rate on the whole amount, 2 % discount for 10 days, 30 days net', () => {
    const s1 = parseSwicoS1(EXAMPLES.one)!;
    expect(s1).toEqual({
      invoiceNumber: '10201409',
      invoiceDate: '2019-05-12',
      customerReference: '1400.000-53',
      uid: 'CHE-106.017.086',
      vatDates: { start: '2018-05-08', end: '2018-05-08' },
      vat: [{ rate: '7.7' }],
      conditions: [
        { discount: '2', days: 10 },
        { discount: '0', days: 30 },
      ],
    });
    expect(swicoDueDate(s1)).toBe('2019-06-11');
    // 7.7 % contained in 1077.00 gross.
    expect(swicoVatAmount(s1, '1077.00')).toBe('77.00');
    expect(swicoVatAmount(s1, undefined)).toBeUndefined();
  });

  it('example 2: three rates with net amounts, a service period; VAT 14.81 + 42.61 = 57.42', () => {
    const s1 = parseSwicoS1(EXAMPLES.two)!;
    expect(s1.vatDates).toEqual({ start: '2018-02-26', end: '2018-02-27' });
    expect(s1.vat).toEqual([
      { rate: '3.7', net: '400.19' },
      { rate: '7.7', net: '553.39' },
      { rate: '0', net: '14' },
    ]);
    expect(swicoVatAmount(s1, '1025.00')).toBe('57.42');
    expect(swicoDueDate(s1)).toBe('2018-03-30');
  });

  it('example 3: import VAT is added as it stands: 3.99 + 14.85', () => {
    const s1 = parseSwicoS1(EXAMPLES.three)!;
    expect(s1.importVat).toEqual([{ rate: '2.5', vat: '14.85' }]);
    expect(swicoVatAmount(s1, '68.65')).toBe('18.84');
  });

  it('example 4: an escaped "/" in the invoice number, four conditions', () => {
    const s1 = parseSwicoS1(EXAMPLES.four)!;
    expect(s1.invoiceNumber).toBe('X.66711/8824');
    expect(s1.conditions?.map((c) => `${c.discount}:${c.days}`)).toEqual(['3:5', '1.5:20', '1:40', '0:60']);
    expect(swicoDueDate(s1)).toBe('2020-09-10');
    expect(swicoVatAmount(s1, '120.15')).toBe('2.93');
  });

  it('writes each example back exactly', () => {
    for (const text of Object.values(EXAMPLES)) expect(encodeSwicoS1(parseSwicoS1(text)!)).toBe(text);
  });

  it('is null for other syntaxes; leaves out values that break the syntax, keeping the rest', () => {
    expect(parseSwicoS1('')).toBeNull();
    expect(parseSwicoS1('//S2/10/1')).toBeNull();
    expect(parseSwicoS1('Rechnung 4711')).toBeNull();
    const s1 = parseSwicoS1('//S1/10/A-1/11/190231/30/12345/32/abc/40/0:99999/33/2.5')!;
    // 31 February, a UID of 5 digits, a VAT rate that is no number, 99999 days, import VAT without amount.
    expect(s1).toEqual({ invoiceNumber: 'A-1' });
    expect(swicoDueDate(s1)).toBeUndefined();
    expect(swicoVatAmount(s1, '10.00')).toBeUndefined();
    expect(parseSwicoS1(`//S1/32/${'9'.repeat(40)}`)).toEqual({});
    // Several rates without net amounts say nothing about the split.
    expect(parseSwicoS1('//S1/32/8.1;2.6')).toEqual({});
  });

  it('escapes "/" and "\\" and drops empty tags when writing', () => {
    expect(encodeSwicoS1({ invoiceNumber: 'A/1\\2', invoiceDate: '2025-03-01', uid: 'CHE-123.456.789', vat: [{ rate: swicoNumber('8.10') }], conditions: [{ discount: '0', days: 30 }] })).toBe(
      '//S1/10/A\\/1\\\\2/11/250301/30/123456789/32/8.1/40/0:30',
    );
    expect(parseSwicoS1('//S1/10/A\\/1\\\\2')!.invoiceNumber).toBe('A/1\\2');
    expect(encodeSwicoS1({ invoiceNumber: '', customerReference: undefined })).toBe('//S1');
    expect(swicoNumber('100.00')).toBe('100');
    expect(swicoNumber('0.30')).toBe('0.3');
  });
});
