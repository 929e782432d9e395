import { describe, expect, it } from 'vitest';
import { AdditionalPropertyType as T, makeCreditorReference, makeQrReference } from '@bilan/domain';
import { encodeBarcode, isGtin13, propertyDisplay } from './property-display';

const show = (type: number, value: string, currency = 'CHF') => propertyDisplay(type, value, currency);

describe('propertyDisplay: each AdditionalPropertyType rendered by its type (spec §3)', () => {
  it('Link: only http(s) becomes an external link; anything else stays text', () => {
    expect(show(T.Link, 'https://www.bexio.com/de-CH')).toEqual({ kind: 'external', href: 'https://www.bexio.com/de-CH', text: 'https://www.bexio.com/de-CH' });
    expect(show(T.Link, 'http://example.ch')).toMatchObject({ kind: 'external' });
    for (const unsafe of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'ftp://example.ch', '//evil.example', 'example.ch']) {
      expect(show(T.Link, unsafe), unsafe).toEqual({ kind: 'text', text: unsafe });
    }
  });

  it('Email: mailto with the address, nothing that could add headers', () => {
    expect(show(T.Email, 'billing@kunde.ch')).toEqual({ kind: 'mailto', href: 'mailto:billing@kunde.ch', text: 'billing@kunde.ch' });
    expect(show(T.Email, "o'neil+bills@kunde.ch")).toEqual({ kind: 'mailto', href: "mailto:o'neil%2Bbills@kunde.ch", text: "o'neil+bills@kunde.ch" });
    expect(show(T.Email, 'a@b.ch?cc=all@evil.example')).toEqual({ kind: 'text', text: 'a@b.ch?cc=all@evil.example' });
  });

  it('Phone: tel: in E.164, shown internationally; Swiss numbers written nationally get +41', () => {
    expect(show(T.Phone, '044 668 18 00')).toEqual({ kind: 'tel', href: 'tel:+41446681800', text: '+41 44 668 18 00' });
    expect(show(T.Phone, '+41 22 123 45 67')).toEqual({ kind: 'tel', href: 'tel:+41221234567', text: '+41 22 123 45 67' });
    expect(show(T.Phone, '0041791234567')).toEqual({ kind: 'tel', href: 'tel:+41791234567', text: '+41 79 123 45 67' });
    expect(show(T.Phone, '+49 30 901820')).toMatchObject({ kind: 'tel', href: 'tel:+4930901820' });
    expect(show(T.Phone, '123')).toEqual({ kind: 'text', text: '123' });
  });

  it('Date: de-CH dd.mm.yyyy; Amount: fr-CH with its currency or the instance currency', () => {
    expect(show(T.Date, '2025-03-01')).toEqual({ kind: 'text', text: '01.03.2025' });
    expect(show(T.Amount, '25000')).toEqual({ kind: 'text', text: '25\u202f000,00 CHF' });
    expect(show(T.Amount, '1234.5 EUR', 'CHF')).toEqual({ kind: 'text', text: '1\u202f234,50 EUR' });
    expect(show(T.Amount, '-12.35', 'EUR')).toEqual({ kind: 'text', text: '(12,35) EUR' });
  });

  it('ReferenceNumber: grouped for reading, named, with its check digit verified', () => {
    const qr = makeQrReference('1234567890');
    expect(qr).toBe('000000000000000012345678903');
    expect(show(T.ReferenceNumber, qr)).toEqual({ kind: 'reference', label: 'QR reference', text: '00 00000 00000 00001 23456 78903', valid: true });
    expect(show(T.ReferenceNumber, 'RF18539007547034')).toEqual({ kind: 'reference', label: 'Creditor reference', text: 'RF18 5390 0754 7034', valid: true });
    expect(show(T.ReferenceNumber, makeCreditorReference('BILAN000042'))).toMatchObject({ label: 'Creditor reference', valid: true });
    // A wrong check digit (data from before the rule) is shown, and flagged.
    expect(show(T.ReferenceNumber, 'RF19539007547034')).toMatchObject({ valid: false });
    expect(show(T.ReferenceNumber, `${qr.slice(0, 26)}${(Number(qr[26]) + 1) % 10}`)).toMatchObject({ label: 'QR reference', valid: false });
  });

  it('InternalLink: an in-app path; never another origin', () => {
    expect(show(T.InternalLink, '/invoice/add')).toEqual({ kind: 'internal', to: '/invoice/add', text: '/invoice/add' });
    expect(show(T.InternalLink, '//evil.example/x')).toEqual({ kind: 'text', text: '//evil.example/x' });
    expect(show(T.InternalLink, '/\\evil.example')).toEqual({ kind: 'text', text: '/\\evil.example' });
  });

  it('Text stays text', () => {
    expect(show(T.Text, 'Zahlt immer pünktlich')).toEqual({ kind: 'text', text: 'Zahlt immer pünktlich' });
  });
});

describe('Barcode properties', () => {
  it('recognises a GTIN-13 by its GS1 check digit', () => {
    expect(isGtin13('4006381333931')).toBe(true);
    expect(isGtin13('4006381333932')).toBe(false);
    expect(isGtin13('400638133393')).toBe(false);
  });

  it('draws a GTIN-13 as EAN-13: 95 modules between the guard bars', () => {
    const barcode = encodeBarcode('4006381333931')!;
    expect(barcode.format).toBe('EAN-13');
    const bars = barcode.modules.replace(/^0+/, '');
    expect(bars).toHaveLength(95);
    expect(bars.slice(0, 3)).toBe('101');
    expect(bars.slice(45, 50)).toBe('01010');
    expect(bars.slice(-3)).toBe('101');
    expect(show(T.Barcode, '4006381333931')).toEqual({ kind: 'barcode', barcode });
  });

  it('draws anything else as Code 128: start, 11-module symbols with the check symbol, stop', () => {
    for (const value of ['ABC-123', 'Kunde 42 / Lager 7', '4006381333932', '~!@#$%^&*()']) {
      const barcode = encodeBarcode(value)!;
      expect(barcode.format, value).toBe('Code 128');
      expect(['11010000100', '11010010000', '11010011100']).toContain(barcode.modules.slice(0, 11)); // start A, B or C
      expect(barcode.modules.endsWith('1100011101011')).toBe(true); // stop
      expect((barcode.modules.length - 13) % 11).toBe(0);
      expect(barcode.text).toBe(value);
    }
    expect(encodeBarcode('ABC-123')!.modules).not.toBe(encodeBarcode('ABC-124')!.modules);
  });
});
