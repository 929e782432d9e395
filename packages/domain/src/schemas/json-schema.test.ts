import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from './index.js';

// The server generates its OpenAPI document from these schemas (DESIGN.md "Stack"), so none may
// hold a transform that JSON Schema cannot express.
describe('schemas convert to JSON Schema', () => {
  const entries = Object.entries(schemas as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);

  it('covers every exported schema', () => {
    expect(entries.map(([name]) => name).sort()).toEqual([
      'accountingSettingsPatchSchema', 'additionalPropertyInsertSchema', 'addressInsertSchema', 'addressSchema', 'checkAcknowledgementSchema', 'companyAddressSchema', 'companyCountrySchema',
      'companyInsertSchema', 'companyUpdateSchema', 'contactDataSchema', 'contactInsertSchema', 'countryRefSchema', 'instanceInitAccountsSchema', 'instanceInitSchema', 'instanceSettingsSchema', 'invoiceImportRowSchema', 'invoiceItemSchema', 'invoiceSchema',
      'journalEntrySchema', 'journalLineSchema', 'ledgerAccountSchema', 'onboardingBankAccountSchema', 'onboardingCompanySchema',
      'onboardingExtraSchema', 'payableDataSchema', 'payableEmployeeSchema', 'paymentProfileFormSchema', 'paymentProfileInsertSchema', 'salaryImportSchema', 'salaryWageTypeSchema', 'salaryWageTypesSchema', 'vatCodePatchSchema', 'vatCodeSchema', 'zCompanyName', 'zFxRate', 'zInvoiceCurrency', 'zOptionalBic', 'zOptionalUid',
      'zVatCode',
    ]);
  });

  it.each(entries)('%s', (_name, schema) => {
    for (const io of ['input', 'output'] as const) {
      const json = z.toJSONSchema(schema, { io, unrepresentable: 'throw' });
      expect(json).toBeTypeOf('object');
    }
  });

  it('strict objects forbid additional properties', () => {
    const json = z.toJSONSchema(schemas.journalEntrySchema, { io: 'input' }) as { additionalProperties?: unknown };
    expect(json.additionalProperties).toBe(false);
  });
});
