/** Onboarding wizard and instance initialisation (spec §2.9, §3 "Onboarding …", §5, §7 /api/instance/init). */
import { z } from 'zod';
import { VAT_PERCENT_MAX, VAT_PERCENT_MIN } from '../constants.js';
import { Country, PaymentProfileType, type CountryId } from '../enums.js';
import { validationMessages as m } from '../messages.js';
import { Money, isAmountString } from '../money.js';
import {
  ruleError, strictObject, whenFieldsValid, zCurrencyCodeWith, zRequiredText, zUuid,
} from '../validators/common.js';
import { zOptionalQrBillText, zQrBillText } from '../validators/qr-bill-text.js';
import { isValidSwissUid } from '../validators/uid.js';
import { ibanMessageForType, zOptionalBic } from './payment-profile.js';

const countryIds = Object.values(Country) as [CountryId, ...CountryId[]];

/** Country reference `{ id }` (docs/api.md "countries are { id }"), id one of spec §3 Country. */
export const countryRefSchema = strictObject(
  { id: z.literal(countryIds, { error: ruleError(m.countryUnknown, m.fieldMustBeGiven) }) },
  m.fieldMustBeGiven,
);

/**
 * Company step, legacy form (spec §5 "Company name … required"); uid optional, eCH-0097 when given.
 * The name is the creditor of every QR bill the workplace issues: at most 70 characters of the
 * Swiss payments set (SIX IG v2.3 §4.3.2, SPS 2025).
 */
export const onboardingCompanySchema = strictObject({
  name: zQrBillText('name'),
  uid: z
    .string()
    .refine((uid) => uid === '' || isValidSwissUid(uid), { error: m.uidInvalid })
    .nullish(),
});
export type OnboardingCompany = z.infer<typeof onboardingCompanySchema>;

/**
 * Address step (spec §5 "Address: street, zip, city and country each required"), the creditor
 * address of the workplace's QR bills: type S lengths and character set (SIX IG v2.3 §4.3.2).
 */
export const addressSchema = strictObject(
  {
    street: zQrBillText('street'),
    houseNumber: zOptionalQrBillText('houseNumber'),
    zip: zQrBillText('zip'),
    city: zQrBillText('city'),
    country: countryRefSchema,
  },
  m.fieldMustBeGiven,
);
export type Address = z.infer<typeof addressSchema>;

/**
 * One bank account of the bank-accounts step (spec §3 "Onboarding bank account", §5 IBAN/QR-IBAN/BIC
 * messages). The type is IBAN (1) or QR bill (2); the ledger code is a 4-digit account number.
 */
export const onboardingBankAccountSchema = strictObject({
  ledgerCode: z
    .number()
    .int({ error: m.mustBeInteger })
    .min(1000, { error: m.ledgerCodeRange })
    .max(9999, { error: m.ledgerCodeRange }),
  name: zRequiredText,
  iban: z.string({ error: ruleError(m.ibanWronglyFormatted, m.ibanMustNotBeEmpty) }),
  bic: zOptionalBic,
  type: z.literal([PaymentProfileType.Iban, PaymentProfileType.QrBill], {
    error: ruleError(m.bankAccountTypeInvalid, m.typeMustBeGiven),
  }),
}).superRefine(
  (account, ctx) => {
    const message = ibanMessageForType(account.type, account.iban);
    if (message) ctx.addIssue({ code: 'custom', message, path: ['iban'], input: account.iban });
  },
  { when: whenFieldsValid('type', 'iban') },
);
export type OnboardingBankAccount = z.infer<typeof onboardingBankAccountSchema>;

const isVatPercentText = (vat: string): boolean => isAmountString(vat, 3);

/**
 * Extra step (spec §5 "Extra info"): VAT percent as text, optional ('' or absent), 1–99 (§9),
 * at most 3 decimals (the stored fraction has 5, migration 0001); currency required.
 */
export const onboardingExtraSchema = strictObject({
  vat: z
    .string()
    .refine((vat) => vat === '' || isVatPercentText(vat), { error: m.vatNotNumber, abort: true })
    .refine((vat) => vat === '' || !new Money(vat).greaterThan(VAT_PERCENT_MAX), { error: m.vatTooHigh })
    .refine((vat) => vat === '' || !new Money(vat).lessThan(VAT_PERCENT_MIN), { error: m.vatTooLow })
    .nullish(),
  currency: zCurrencyCodeWith(m.defaultCurrencyMustBeGiven),
});
export type OnboardingExtra = z.infer<typeof onboardingExtraSchema>;

/** Body of POST /api/instance/init (docs/api.md): the first three wizard steps together. */
export const instanceInitSchema = strictObject({
  company: onboardingCompanySchema,
  address: addressSchema,
  extra: onboardingExtraSchema,
});
export type InstanceInit = z.infer<typeof instanceInitSchema>;

/**
 * Body of POST /api/instance/init/accounts (docs/api.md). Ledger codes must differ: each becomes
 * a ledger account number, unique per instance.
 */
export const instanceInitAccountsSchema = strictObject({
  company: strictObject({ uuid: zUuid }),
  accounts: z.array(onboardingBankAccountSchema).superRefine((accounts, ctx) => {
    const seen = new Set<number>();
    accounts.forEach((account, index) => {
      if (seen.has(account.ledgerCode)) {
        ctx.addIssue({ code: 'custom', message: m.ledgerCodeDuplicate, path: [index, 'ledgerCode'], input: account.ledgerCode });
      }
      seen.add(account.ledgerCode);
    });
  }),
  currency: zCurrencyCodeWith(),
});
export type InstanceInitAccounts = z.infer<typeof instanceInitAccountsSchema>;
