import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  INVOICE_VAT_RATES,
  addDays,
  daysBetween,
  invoiceCreditorReference,
  invoiceItemProblems,
  invoiceLineTotal,
  invoiceQrReference,
  invoiceTotals,
  normalizeVatRate,
  toBaseAmount,
  vatAccountsFor,
  vatRateAt,
} from './invoice.js';
import { isQrBillText, validateQrBill, type QrBillData } from './qrbill.js';
import { isValidCreditorReference, isValidQrReference } from './validators/reference.js';
import { formatReferenceNumber } from './reference-number.js';

/** Cents as BigInt → "12.34". */
const centsToString = (cents: bigint): string => {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};
/** Half-up integer division for non-negative BigInts. */
const divHalfUp = (numerator: bigint, denominator: bigint): bigint => {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const q = (n * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
};

describe('invoiceLineTotal', () => {
  it('multiplies and applies percent or absolute discounts', () => {
    expect(invoiceLineTotal({ quantity: '3', price: '19.90' })).toBe('59.70');
    expect(invoiceLineTotal({ quantity: '2', price: '100', discount: '10' })).toBe('180.00');
    expect(invoiceLineTotal({ quantity: '2', price: '100', discountAbs: '15.50' })).toBe('184.50');
    expect(invoiceLineTotal({ quantity: '0.1', price: '0.2' })).toBe('0.02');
    expect(invoiceLineTotal({ quantity: '1', price: '0.005' })).toBe('0.01');
  });

  it('equals BigInt arithmetic on cents for any quantity, price and discount (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 6n }), // quantity in thousandths
        fc.bigInt({ min: 0n, max: 10n ** 9n }), // price in cents
        fc.integer({ min: 0, max: 100 }),
        (qMilli, priceCents, percent) => {
          const quantity = `${qMilli / 1000n}.${(qMilli % 1000n).toString().padStart(3, '0')}`;
          // total cents = q/1000 × price × (100 − p)/100, half-up
          const exact = divHalfUp(qMilli * priceCents * BigInt(100 - percent), 1000n * 100n);
          expect(invoiceLineTotal({ quantity, price: centsToString(priceCents), discount: String(percent) })).toBe(centsToString(exact));
        },
      ),
    );
  });
});

describe('invoiceTotals', () => {
  it('adds VAT per invoice and rounds CHF to 5 Rappen', () => {
    const totals = invoiceTotals(
      [
        { quantity: '2', price: '120.00', discount: '10' },
        { quantity: '1', price: '33.33' },
      ],
      '0.081',
    );
    // net 216 + 33.33 = 249.33; VAT 20.19573 → 20.20; gross 269.53 → 269.55
    expect(totals).toEqual({
      net: '249.33',
      vatRate: '0.081',
      vat: '20.20',
      vatLines: [{ rate: '0.081', base: '249.33', vat: '20.20' }],
      gross: '269.53',
      rounding: '0.02',
      total: '269.55',
    });
    expect(invoiceTotals([{ quantity: '1', price: '10.01' }], '0', 'EUR').total).toBe('10.01');
  });

  it('net = Σ lines, gross = net + vat, total − gross = rounding ≤ 0.025, total a multiple of 0.05 (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.bigInt({ min: 0n, max: 10n ** 8n })), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(...INVOICE_VAT_RATES),
        (lines, rate) => {
          const inputs = lines.map(([q, p]) => ({ quantity: String(q), price: centsToString(p) }));
          const t = invoiceTotals(inputs, rate);
          const toCents = (s: string) => BigInt(s.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1'));
          const net = lines.reduce((sum, [q, p]) => sum + BigInt(q) * p, 0n);
          expect(toCents(t.net)).toBe(net);
          const rateThousandths = BigInt(Math.round(Number(rate) * 1000));
          expect(toCents(t.vat)).toBe(divHalfUp(net * rateThousandths, 1000n));
          expect(toCents(t.gross)).toBe(toCents(t.net) + toCents(t.vat));
          expect(toCents(t.total) % 5n).toBe(0n);
          expect(toCents(t.total) - toCents(t.gross)).toBe(toCents(t.rounding));
          expect(toCents(t.rounding) <= 2n && toCents(t.rounding) >= -2n).toBe(true);
        },
      ),
    );
  });
});

describe('invoiceTotals with a VAT rate per line', () => {
  it('rounds the VAT once per rate and sums the rates', () => {
    const totals = invoiceTotals(
      [
        { quantity: '1', price: '10.05' },
        { quantity: '1', price: '10.05' },
        { quantity: '3', price: '19.90', vatRate: '0.026' },
        { quantity: '1', price: '50', vatRate: '0' },
      ],
      '0.081',
    );
    // 20.10 × 8.1 % = 1.6281 → 1.63 (per line it would be 0.81 + 0.81 = 1.62); 59.70 × 2.6 % = 1.5522 → 1.55.
    expect(totals.vatLines).toEqual([
      { rate: '0.081', base: '20.10', vat: '1.63' },
      { rate: '0.026', base: '59.70', vat: '1.55' },
      { rate: '0', base: '50.00', vat: '0.00' },
    ]);
    expect(totals).toMatchObject({ net: '129.80', vat: '3.18', gross: '132.98', total: '133.00' });
    expect(invoiceTotals([], '0.081').vatLines).toEqual([{ rate: '0.081', base: '0.00', vat: '0.00' }]);
    expect(invoiceTotals([{ quantity: '1', price: '1', vatRate: '0.0810' }], '0.081').vatLines).toHaveLength(1);
  });

  it('VAT = Σ over rates of round(base × rate), net = Σ lines, exact (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.constantFrom(null, ...INVOICE_VAT_RATES)), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(...INVOICE_VAT_RATES),
        (lines, invoiceRate) => {
          const t = invoiceTotals(lines.map(([cents, rate]) => ({ quantity: '1', price: centsToString(cents), vatRate: rate })), invoiceRate);
          const toCents = (s: string) => BigInt(s.replace('.', '').replace(/^(-?)0+(?=\d)/, '$1'));
          const bases = new Map<string, bigint>();
          for (const [cents, rate] of lines) {
            const key = String(Number(rate ?? invoiceRate));
            bases.set(key, (bases.get(key) ?? 0n) + cents);
          }
          let vat = 0n;
          for (const [rate, base] of bases) vat += divHalfUp(base * BigInt(Math.round(Number(rate) * 1000)), 1000n);
          expect(toCents(t.vat)).toBe(vat);
          expect(t.vatLines.reduce((sum, line) => sum + toCents(line.vat), 0n)).toBe(vat);
          expect(t.vatLines.reduce((sum, line) => sum + toCents(line.base), 0n)).toBe(toCents(t.net));
          expect(toCents(t.gross)).toBe(toCents(t.net) + vat);
        },
      ),
    );
  });
});

describe('invoice helpers', () => {
  it('maps each Swiss rate to its revenue and output VAT account', () => {
    expect(vatAccountsFor('0.081')).toEqual({ revenue: { number: '3200', name: 'Handelserlöse 8.1%' }, vat: { number: '2200', name: 'Geschuldete MWST (8.1%)' } });
    expect(vatAccountsFor('0.02600').revenue.number).toBe('3201');
    expect(vatAccountsFor('0.038').vat?.number).toBe('2202');
    expect(vatAccountsFor('0')).toEqual({ revenue: { number: '3203', name: 'Erlöse steuerbefreit 0%' }, vat: null });
    expect(vatAccountsFor('0.077').revenue.number).toBe('3200');
    // A rate of an earlier period books on the accounts of its type (decision 019).
    expect(vatAccountsFor('0.025').vat?.number).toBe('2201');
    expect(vatAccountsFor('0.037').revenue.number).toBe('3202');
    expect(vatAccountsFor('0.05').vat?.number).toBe('2200');
  });

  it('answers the same rates when asked again (remembered), each date its own, and keeps refusing what is no rate', () => {
    for (let round = 0; round < 2; round++) {
      expect(vatRateAt('0.081', '2023-12-31')).toBe('0.077');
      expect(vatRateAt('0.081', '2024-01-01')).toBe('0.081');
      expect(normalizeVatRate('0.0810')).toBe('0.081');
      expect(() => normalizeVatRate('8,1 %')).toThrow(RangeError);
    }
  });

  it('computes the totals at the rate in force on the supply date (decision 019)', () => {
    expect(vatRateAt('0.081', '2023-12-31')).toBe('0.077');
    expect(vatRateAt('0.026', '2023-06-30')).toBe('0.025');
    expect(vatRateAt('0.077', '2024-01-01')).toBe('0.081');
    expect(vatRateAt('0', '2023-01-01')).toBe('0');
    expect(vatRateAt('0.05', '2024-01-01')).toBe('0.05');
    const lines = [{ quantity: '1', price: '100' }, { quantity: '1', price: '50', vatRate: '0.026' }];
    expect(invoiceTotals(lines, '0.081', 'CHF', '2023-12-31')).toMatchObject({
      vatRate: '0.077',
      vatLines: [
        { rate: '0.077', base: '100.00', vat: '7.70' },
        { rate: '0.025', base: '50.00', vat: '1.25' },
      ],
      total: '158.95',
    });
    expect(invoiceTotals(lines, '0.081', 'CHF', '2024-01-01').vatLines[0]).toEqual({ rate: '0.081', base: '100.00', vat: '8.10' });
  });

  it('dates, conversion and cross-field line rules', () => {
    expect(addDays('2025-01-31', 30)).toBe('2025-03-02');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(daysBetween('2025-03-31', '2025-05-15')).toBe(45);
    expect(daysBetween('2025-05-15', '2025-03-31')).toBe(-45);
    expect(toBaseAmount('269.53', '0.93')).toBe('250.66');
    expect(toBaseAmount('0.005', '1')).toBe('0.01');
    expect(invoiceItemProblems({ amount: '2', price: '10', discountAbs: '20' })).toEqual({});
    expect(invoiceItemProblems({ amount: '2', price: '10', discountAbs: '20.01' })).toEqual({ discountAbs: 'the discount cannot exceed the line amount' });
    expect(invoiceItemProblems({ amount: '1000', price: '999999999999.99' })).toEqual({ price: 'the line amount (quantity × price) must be between -999999999999.99 and 999999999999.99' });
    expect(invoiceItemProblems({ amount: '1', price: '999999999999.99' })).toEqual({});
    expect(invoiceItemProblems({ amount: '1', price: '10', discount: '5', discountAbs: '1' })).toEqual({ discountAbs: 'give either a percent or an absolute discount, not both' });
    expect(invoiceItemProblems({ amount: '1', price: '10', discount: '0', discountAbs: '1' })).toEqual({});
    // Malformed values are the schema's to report, never an exception here.
    expect(invoiceItemProblems({ amount: 'x', price: '10', discountAbs: 'y' })).toEqual({});
    expect(invoiceItemProblems({ amount: '1', price: '10', discountAbs: 'y' })).toEqual({});
  });
});

describe('invoice references', () => {
  it('QR reference: 27 digits, valid check digit', () => {
    expect(invoiceQrReference(42)).toMatch(/^\d{27}$/);
    expect(isValidQrReference(invoiceQrReference(42))).toBe(true);
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (id) => isValidQrReference(invoiceQrReference(id))));
  });

  it('creditor reference: RF + mod 97-10 over BILAN + padded id', () => {
    const reference = invoiceCreditorReference(42);
    expect(reference).toMatch(/^RF\d{2}BILAN000042$/);
    expect(isValidCreditorReference(reference)).toBe(true);
    expect(formatReferenceNumber(42)).toBe('BILAN000042');
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (id) => isValidCreditorReference(invoiceCreditorReference(id))));
  });
});

describe('validateQrBill rules', () => {
  const base: QrBillData = {
    account: 'CH4431999123000889012',
    creditor: { name: 'Robert Schneider AG', street: 'Rue du Lac', buildingNumber: '1268', zip: '2501', city: 'Biel', country: 'CH' },
    amount: '1949.75',
    currency: 'CHF',
    reference: '210000000003139471430009017',
  };
  it('accepts the base bill and an empty amount', () => {
    expect(validateQrBill(base)).toEqual({});
    expect(validateQrBill({ ...base, amount: undefined })).toEqual({});
  });
  it('checks the amount range', () => {
    expect(validateQrBill({ ...base, amount: '0.00' })).toHaveProperty('amount');
    expect(validateQrBill({ ...base, amount: '1000000000.00' })).toHaveProperty('amount');
    expect(validateQrBill({ ...base, amount: '999999999.99' })).toEqual({});
  });
  it('checks the QR reference: all zeros and bad check digit refused', () => {
    expect(validateQrBill({ ...base, reference: '000000000000000000000000000' })).toHaveProperty('reference');
    expect(validateQrBill({ ...base, reference: '210000000003139471430009018' })).toHaveProperty('reference');
    expect(validateQrBill({ ...base, reference: undefined })).toHaveProperty('reference');
  });
  it('checks the creditor reference with an IBAN', () => {
    const iban = { ...base, account: 'CH9300762011623852957' };
    expect(validateQrBill({ ...iban, reference: 'RF18539007547034' })).toEqual({});
    expect(validateQrBill({ ...iban, reference: 'RF19539007547034' })).toHaveProperty('reference');
    expect(validateQrBill({ ...iban, reference: undefined })).toEqual({});
  });
  it('character set: Latin-1, Latin Extended-A, Ș ș Ț ț and € allowed; others refused', () => {
    expect(isQrBillText('Zürich Ÿ ő Œ Ș ș Ț ț € ©')).toBe(true);
    expect(isQrBillText('Ω')).toBe(false);
    expect(isQrBillText('emoji 😀')).toBe(false);
    expect(isQrBillText('tab\t')).toBe(false);
    expect(validateQrBill({ ...base, creditor: { ...base.creditor, name: 'Ωmega' } })).toEqual({
      'creditor.name': 'contains a character the QR-bill does not allow',
    });
  });
  it('structured address: town, postcode and country required', () => {
    expect(validateQrBill({ ...base, creditor: { ...base.creditor, city: '' } })).toHaveProperty('creditor.city');
    expect(validateQrBill({ ...base, creditor: { ...base.creditor, country: 'Switzerland' } })).toHaveProperty('creditor.country');
  });
});
