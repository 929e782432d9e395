import { describe, expect, it } from 'vitest';
import {
  addVatFigures,
  compareTaxLines,
  deriveVatFigures,
  isVatPeriod,
  isZeroVatFigures,
  netRateTax,
  netRateZiffern,
  netRateRow,
  standardTaxRows,
  subtractVatFigures,
  vatPayable,
  vatPeriodOf,
  vatPeriodsOfYear,
  vatSettingsSchema,
  vatTaxZiffer,
  type VatTaxLine,
} from './vat-return.js';
import { vatTaxLineLabel } from './vat-return-labels.js';

const line = (ziffer: string, kind: VatTaxLine['kind'], ratePercent: string, base: string, tax: string): VatTaxLine => ({ ziffer, kind, ratePercent, base, tax });

describe('deriveVatFigures (mwst_form_ziffern.json)', () => {
  it('derives 289, 299, 399, 479 and 500 for a payable return', () => {
    const result = deriveVatFigures({
      method: 'effective',
      figures: { '200': '12000.00', '220': '1000.00', '221': '500.00', '230': '250.00', '235': '100.00', '280': '50.00', '400': '300.00', '405': '150.00', '410': '10.00', '415': '20.00', '420': '5.00', '900': '7.00' },
      taxLines: [line('303', 'supply', '8.1', '10000.00', '810.00'), line('313', 'supply', '2.6', '100.00', '2.60'), line('383', 'acquisition', '8.1', '200.00', '16.20')],
    });
    // 289 = 1000 + 500 + 250 + 100 + 50 = 1900; 299 = 12000 − 1900 = 10100.
    expect(result.figures['289']).toBe('1900.00');
    expect(result.figures['299']).toBe('10100.00');
    // 399 = 810 + 2.60 + 16.20; 479 = 300 + 150 + 10 − 20 − 5 = 435; 500 = 828.80 − 435.
    expect(result.figures['399']).toBe('828.80');
    expect(result.figures['479']).toBe('435.00');
    expect(result.figures['500']).toBe('393.80');
    expect(result.figures['510']).toBe('0.00');
    expect(result.figures['900']).toBe('7.00');
    expect(result.figures['910']).toBe('0.00');
    expect(vatPayable(result)).toBe('393.80');
  });

  it('puts a surplus of input tax into 510', () => {
    const result = deriveVatFigures({ method: 'effective', figures: { '200': '100.00', '400': '50.00' }, taxLines: [line('303', 'supply', '8.1', '100.00', '8.10')] });
    expect(result.figures['500']).toBe('0.00');
    expect(result.figures['510']).toBe('41.90');
    expect(vatPayable(result)).toBe('-41.90');
  });

  it('ignores input tax for the net tax rate method', () => {
    const result = deriveVatFigures({ method: 'net', figures: { '200': '10810.00', '400': '99.00' }, taxLines: [line('322', 'net', '6.2', '10810.00', netRateTax('10810.00', '6.2'))] });
    expect(result.taxLines[0]!.tax).toBe('670.22'); // 10810 × 6.2 % = 670.22
    expect(result.figures['400']).toBe('0.00');
    expect(result.figures['479']).toBe('0.00');
    expect(result.figures['500']).toBe('670.22');
  });
});

describe('corrections and sums', () => {
  const q1 = deriveVatFigures({ method: 'effective', figures: { '200': '1000.00', '400': '10.00' }, taxLines: [line('303', 'supply', '8.1', '1000.00', '81.00')] });
  const q2 = deriveVatFigures({ method: 'effective', figures: { '200': '500.00' }, taxLines: [line('303', 'supply', '8.1', '500.00', '40.50'), line('302', 'supply', '7.7', '100.00', '7.70')] });

  it('adds returns figure by figure', () => {
    const year = addVatFigures('effective', [q1, q2]);
    expect(year.figures['200']).toBe('1500.00');
    expect(year.figures['399']).toBe('129.20');
    expect(year.figures['500']).toBe('119.20');
    expect(year.taxLines.map((l) => [l.ziffer, l.base, l.tax])).toEqual([
      ['303', '1500.00', '121.50'],
      ['302', '100.00', '7.70'],
    ]);
  });

  it('subtracts to the difference, negative figures included', () => {
    const difference = subtractVatFigures(q1, q2);
    expect(difference.figures['200']).toBe('500.00');
    expect(difference.taxLines.find((l) => l.ziffer === '302')).toMatchObject({ base: '-100.00', tax: '-7.70' });
    expect(isZeroVatFigures(subtractVatFigures(q1, q1))).toBe(true);
    expect(isZeroVatFigures(difference)).toBe(false);
  });
});

describe('figures of rates', () => {
  it('maps each rate to the figure of its period', () => {
    expect(vatTaxZiffer('supply', '8.1')).toBe('303');
    expect(vatTaxZiffer('supply', '8.10')).toBe('303');
    expect(vatTaxZiffer('supply', '2.6')).toBe('313');
    expect(vatTaxZiffer('supply', '3.8')).toBe('343');
    expect(vatTaxZiffer('supply', '7.7')).toBe('302');
    expect(vatTaxZiffer('supply', '2.5')).toBe('312');
    expect(vatTaxZiffer('supply', '3.7')).toBe('342');
    expect(vatTaxZiffer('supply', '8')).toBe('301');
    expect(vatTaxZiffer('acquisition', '8.1')).toBe('383');
    expect(vatTaxZiffer('acquisition', '2.6')).toBe('383');
    expect(vatTaxZiffer('acquisition', '7.7')).toBe('382');
  });

  it('orders rows as the form: current rates first, supplies before acquisition tax', () => {
    const order = (lines: Omit<VatTaxLine, 'base' | 'tax'>[]) => [...lines].sort(compareTaxLines).map((l) => `${l.ziffer}:${l.ratePercent}`);
    expect(order([{ ziffer: '302', kind: 'supply', ratePercent: '7.7' }, { ziffer: '383', kind: 'acquisition', ratePercent: '2.6' }, { ziffer: '383', kind: 'acquisition', ratePercent: '8.1' }, { ziffer: '313', kind: 'supply', ratePercent: '2.6' }, { ziffer: '303', kind: 'supply', ratePercent: '8.1' }])).toEqual([
      '303:8.1', '313:2.6', '383:8.1', '383:2.6', '302:7.7',
    ]);
    expect(order([{ ziffer: '383', kind: 'acquisition', ratePercent: '8.1' }, { ziffer: '332', kind: 'net', ratePercent: '0.6' }, { ziffer: '322', kind: 'net', ratePercent: '6.2' }])).toEqual(['322:6.2', '332:0.6', '383:8.1']);
  });

  it('lists the rows the form always shows', () => {
    expect(standardTaxRows('effective', '2024-03-31').map((r) => r.ziffer)).toEqual(['303', '313', '343', '383', '302', '312', '342', '382']);
    const rates = [{ ratePercent: '6.2', previousRatePercent: '5.9' }, { ratePercent: '0.6' }];
    expect(standardTaxRows('net', '2024-06-30', rates).map((r) => `${r.ziffer}:${r.ratePercent}`)).toEqual(['322:6.2', '332:0.6', '383:8.1', '382:7.7']);
    // A 2023 return: the rows of supplies up to 2023 at the rates approved then.
    expect(standardTaxRows('net', '2023-12-31', rates).map((r) => `${r.ziffer}:${r.ratePercent}`)).toEqual(['321:5.9', '331:0.6', '383:8.1', '382:7.7']);
    expect(netRateZiffern('2023-12-31')).toEqual(['321', '331']);
  });

  it('puts net-tax-rate turnover of supplies before 2024 in 321/331 at the rate approved then', () => {
    const rate = { ratePercent: '6.5', previousRatePercent: '6.2' };
    expect(netRateRow(rate, 0, '8.1', '2024-06-30')).toEqual({ ziffer: '322', ratePercent: '6.5' });
    expect(netRateRow(rate, 0, '7.7', '2024-06-30')).toEqual({ ziffer: '321', ratePercent: '6.2' });
    expect(netRateRow(rate, 1, '2.5', '2024-06-30')).toEqual({ ziffer: '331', ratePercent: '6.2' });
    expect(netRateRow({ ratePercent: '6.5' }, 0, '7.7', '2024-06-30')).toEqual({ ziffer: '321', ratePercent: '6.5' });
    expect(netRateRow(rate, 0, '7.7', '2023-12-31')).toEqual({ ziffer: '321', ratePercent: '6.2' });
  });

  it('takes the rows of the form in force at the end of the return', () => {
    // The 2024 form: 3.8 % is the accommodation rate of 2024 (343); 2.5 % that of 2018–2023 (312).
    expect(vatTaxZiffer('supply', '3.8', '2024-03-31')).toBe('343');
    expect(vatTaxZiffer('supply', '2.5', '2024-03-31')).toBe('312');
    // A 2020 return has no 2024 rows: 3.8 % (accommodation 2011–2017) is 341; 8.0 % is 301.
    expect(vatTaxZiffer('supply', '3.8', '2020-03-31')).toBe('341');
    expect(vatTaxZiffer('supply', '8.0', '2020-03-31')).toBe('301');
    expect(vatTaxZiffer('supply', '2.5', '2017-12-31')).toBe('311');
    expect(vatTaxZiffer('acquisition', '8.0', '2017-12-31')).toBe('381');
  });

  it('labels rows in the four languages', () => {
    expect(vatTaxLineLabel({ ziffer: '303', kind: 'supply', ratePercent: '8.1' })).toBe('Standard rate 8.1 % (supplies from 01.01.2024)');
    expect(vatTaxLineLabel({ ziffer: '312', kind: 'supply', ratePercent: '2.5' }, 'de')).toBe('Reduzierter Satz 2,5 % (Leistungen 2018 bis 31.12.2023)');
    expect(vatTaxLineLabel({ ziffer: '383', kind: 'acquisition', ratePercent: '8.1' }, 'fr')).toBe('Impôt sur les acquisitions 8,1 % (prestations dès le 01.01.2024)');
    expect(vatTaxLineLabel({ ziffer: '322', kind: 'net', ratePercent: '6.2' }, 'it')).toBe('Aliquota saldo 6,2 % (prestazioni dal 01.01.2024)');
    expect(vatTaxLineLabel({ ziffer: '321', kind: 'net', ratePercent: '5.9' })).toBe('Net tax rate 5.9 % (supplies 2018 to 31.12.2023)');
  });
});

describe('periods', () => {
  it('cuts a year into quarters, halves, months or one year', () => {
    expect(vatPeriodsOfYear('quarterly', 2024)).toEqual([
      { dateFrom: '2024-01-01', dateTo: '2024-03-31', label: 'Q1 2024' },
      { dateFrom: '2024-04-01', dateTo: '2024-06-30', label: 'Q2 2024' },
      { dateFrom: '2024-07-01', dateTo: '2024-09-30', label: 'Q3 2024' },
      { dateFrom: '2024-10-01', dateTo: '2024-12-31', label: 'Q4 2024' },
    ]);
    expect(vatPeriodsOfYear('half-yearly', 2024).map((p) => p.dateTo)).toEqual(['2024-06-30', '2024-12-31']);
    expect(vatPeriodsOfYear('monthly', 2024)[1]).toEqual({ dateFrom: '2024-02-01', dateTo: '2024-02-29', label: '02.2024' });
    expect(vatPeriodsOfYear('yearly', 2023)).toEqual([{ dateFrom: '2023-01-01', dateTo: '2023-12-31', label: '2023' }]);
  });

  it('starts at the registration date', () => {
    expect(vatPeriodsOfYear('quarterly', 2024, '2024-05-15').map((p) => `${p.dateFrom}..${p.dateTo}`)).toEqual([
      '2024-05-15..2024-06-30',
      '2024-07-01..2024-09-30',
      '2024-10-01..2024-12-31',
    ]);
    expect(vatPeriodsOfYear('quarterly', 2023, '2024-05-15')).toEqual([]);
    expect(vatPeriodOf('quarterly', '2024-08-01')?.label).toBe('Q3 2024');
    expect(isVatPeriod('quarterly', '2024-04-01', '2024-06-30')).toBe(true);
    expect(isVatPeriod('quarterly', '2024-04-01', '2024-06-30', '2024-05-15')).toBe(false);
    expect(isVatPeriod('quarterly', '2024-04-01', '2024-05-31')).toBe(false);
  });
});

describe('vatSettingsSchema', () => {
  const valid = { vatNumber: 'CHE-116.281.710 MWST', registrationDate: '2020-01-01', method: 'effective', basis: 'agreed' };

  it('accepts a registration and defaults the net tax rates to none', () => {
    const parsed = vatSettingsSchema.safeParse(valid);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.netTaxRates).toEqual([]);
  });

  it('refuses a wrong check digit, a missing suffix and net rates that do not fit the method', () => {
    const issues = (value: unknown) => (vatSettingsSchema.safeParse(value).error?.issues ?? []).map((issue) => issue.path.join('.'));
    expect(issues({ ...valid, vatNumber: 'CHE-116.281.711 MWST' })).toEqual(['vatNumber']);
    expect(issues({ ...valid, vatNumber: 'CHE-116.281.710' })).toEqual(['vatNumber']);
    expect(issues({ ...valid, method: 'net' })).toEqual(['netTaxRates']);
    expect(issues({ ...valid, netTaxRates: [{ ratePercent: '6.2' }] })).toEqual(['netTaxRates']);
    expect(issues({ ...valid, method: 'net', netTaxRates: [{ ratePercent: '6.2' }, { ratePercent: '0.6' }, { ratePercent: '1.2' }] })).toEqual(['netTaxRates']);
    expect(issues({ ...valid, method: 'net', netTaxRates: [{ ratePercent: '6.25', accountFrom: '3400', accountTo: '3000' }] })).toEqual(['netTaxRates.0.accountTo']);
    expect(issues({ ...valid, method: 'net', netTaxRates: [{ ratePercent: '0' }] })).toEqual(['netTaxRates.0.ratePercent']);
  });
});
