/** VAT code bodies (issue 13 §1, decision 019; docs/api.md "VAT codes"), shared by the route and the VAT codes page. */
import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import { ruleError, strictObject } from '../validators/common.js';
import { VAT_CODE_KINDS, VAT_CODE_PATTERN, VAT_ENTRIES, VAT_RATE_TYPES, VAT_ZIFFER_PATTERN } from '../vat.js';

const accountNumber = z.string().regex(/^[0-9]{4,10}$/, { error: 'an account number has 4 to 10 digits' });
const ziffer = z.string().regex(VAT_ZIFFER_PATTERN, { error: 'a Ziffer has 3 digits, e.g. 303' });

export const zVatCode = z.string().regex(VAT_CODE_PATTERN, { error: 'a VAT code has 1 to 12 capital letters, digits, - or _' });

/** Every field but `code`, none defaulted (the patch of vat-code/update). */
const fields = {
  name: z.string().trim().min(1, { error: m.fieldMustBeGiven }).max(200, { error: 'at most 200 characters' }),
  kind: z.enum(VAT_CODE_KINDS, { error: ruleError(`expected one of ${VAT_CODE_KINDS.join(', ')}`) }),
  rateType: z.enum(VAT_RATE_TYPES, { error: ruleError(`expected one of ${VAT_RATE_TYPES.join(', ')}`) }),
  accountNumber: accountNumber.nullable(),
  deductionAccountNumber: accountNumber.nullable(),
  defaultEntry: z.enum(VAT_ENTRIES, { error: ruleError('expected gross or net') }),
  zifferBase: ziffer.nullable(),
  zifferTax: ziffer.nullable(),
  zifferDeduction: ziffer.nullable(),
  isActive: z.boolean(),
};

/** vat-code/insert `data`. Rules across fields (zero kinds, acquisition) are the service's (400 naming the field). */
export const vatCodeSchema = strictObject({
  code: zVatCode,
  ...fields,
  deductionAccountNumber: fields.deductionAccountNumber.default(null),
  zifferDeduction: fields.zifferDeduction.default(null),
  isActive: fields.isActive.default(true),
});
export type VatCodeInput = z.input<typeof vatCodeSchema>;

/** vat-code/update `data`: any subset of the fields but `code`; an absent field keeps its value. */
export const vatCodePatchSchema = strictObject(fields).partial();
