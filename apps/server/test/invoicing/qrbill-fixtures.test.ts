import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateQrBill, type QrBillAddress, type QrBillData } from '@bilan/domain';

/** Parses a QR-bill payload (IG v2.3 §4.2.2 element order) into QrBillData. */
function parsePayload(text: string): QrBillData {
  const l = text.replace(/\r\n/g, '\n').split('\n');
  const address = (at: number): QrBillAddress | undefined =>
    l[at] ? { name: l[at + 1]!, street: l[at + 2] || undefined, buildingNumber: l[at + 3] || undefined, zip: l[at + 4]!, city: l[at + 5]!, country: l[at + 6]! } : undefined;
  return {
    account: l[3]!,
    creditor: address(4)!,
    amount: l[18] || undefined,
    currency: l[19] as 'CHF',
    debtor: address(20),
    reference: l[28] || undefined,
    message: l[29] || undefined,
  };
}

describe('validateQrBill on the SIX IG v2.3 examples (fixtures/qrbill)', () => {
  const dir = join(import.meta.dirname, '../../../../fixtures/qrbill');
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.txt'))) {
    const invalid = file.includes('INVALID');
    it(`${file} is ${invalid ? 'refused (known-invalid creditor reference)' : 'valid'}`, () => {
      const fields = validateQrBill(parsePayload(readFileSync(join(dir, file), 'utf8')));
      if (invalid) expect(fields).toEqual({ reference: 'invalid creditor reference (ISO 11649)' });
      else expect(fields).toEqual({});
    });
  }
});

