/**
 * Companies, addresses and additional properties (spec §3 "Company", "Address", "Additional
 * property", §5 "Company name … Address …"). Shared by the company forms and the /api/company,
 * /api/address and /api/additional-property routes.
 */
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { z } from 'zod';
import { AdditionalPropertyType, Country, currencyCodes, type CountryId, type CurrencyCode } from '../enums.js';
import { validationMessages as m } from '../messages.js';
import { isAmountString } from '../money.js';
import { isValidIsoDate } from '../validators/date.js';
import { isValidCreditorReference, isValidQrReference } from '../validators/reference.js';
import { isValidSwissUid } from '../validators/uid.js';
import { ruleError, strictObject, zRequiredText, zUuid } from '../validators/common.js';
import { zOptionalQrBillText, zQrBillText } from '../validators/qr-bill-text.js';
import { onboardingExtraSchema } from './onboarding.js';

const countryIds = Object.values(Country) as [CountryId, ...CountryId[]];

/** Country reference `{ id }` (spec §3 Country); missing → 'This field must be given' (spec §5). */
export const companyCountrySchema = strictObject(
  { id: z.literal(countryIds, { error: ruleError(m.countryUnknown, m.fieldMustBeGiven) }) },
  m.fieldMustBeGiven,
);

/** Optional Swiss UID/VAT number: '', null or absent mean none, otherwise eCH-0097 with check digit. */
export const zOptionalUid = z
  .string()
  .trim()
  .refine((uid) => uid === '' || isValidSwissUid(uid), { error: m.uidInvalid })
  .nullish();

/**
 * Structured postal address (spec §5: street, zip, city and country each 'This field must be
 * given'). Every field fits a QR-bill address of type S (SIX IG v2.3 §4.3.2: street 70, building
 * number 16, postcode 16, town 35; SPS 2025 character set), so every stored address can go on a
 * QR bill: 'Street must be at most 70 characters for Swiss QR-bills', 'Character "Ω" cannot be
 * used in Swiss payments'.
 */
export const companyAddressSchema = strictObject(
  {
    street: zQrBillText('street'),
    houseNumber: zOptionalQrBillText('houseNumber'),
    zip: zQrBillText('zip'),
    city: zQrBillText('city'),
    country: companyCountrySchema,
  },
  m.fieldMustBeGiven,
);
export type CompanyAddress = z.infer<typeof companyAddressSchema>;

/**
 * Company name: required ('This field must be given', spec §5), at most 70 characters of the
 * Swiss payments set, the QR-bill's creditor/debtor name (SIX IG v2.3 §4.3.2, SPS 2025).
 */
export const zCompanyName = zQrBillText('name');

/** Company create form / `/company/insert {data}`: name, optional UID, optional first address. */
export const companyInsertSchema = strictObject({
  name: zCompanyName,
  uid: zOptionalUid,
  address: companyAddressSchema.nullish(),
});
export type CompanyInsert = z.infer<typeof companyInsertSchema>;

/** `/company/update {id, data}`: the given fields change, absent ones stay. */
export const companyUpdateSchema = strictObject({
  name: zCompanyName.optional(),
  uid: zOptionalUid,
});
export type CompanyUpdate = z.infer<typeof companyUpdateSchema>;

/** `/address/insert {data}`: an address plus its company (spec §7.1 "data with company.uuid"). */
export const addressInsertSchema = companyAddressSchema.extend({ company: strictObject({ uuid: zUuid }, m.fieldMustBeGiven) });

/** Spec §3 AdditionalPropertyType ids. */
export type AdditionalPropertyTypeId = (typeof AdditionalPropertyType)[keyof typeof AdditionalPropertyType];
const additionalPropertyTypeIds = Object.values(AdditionalPropertyType) as [AdditionalPropertyTypeId, ...AdditionalPropertyTypeId[]];

/**
 * An Amount property: a decimal with at most 2 decimals, optionally with its currency code before
 * or after it ('25000', '1234.50 EUR', 'EUR 1234.50'); undefined when it is not one. Without a
 * code the amount is in the instance currency.
 */
export function parseAmountProperty(value: string): { amount: string; currency: CurrencyCode | null } | undefined {
  const match = /^(?:([A-Za-z]{3,4})\s+)?(-?[0-9.]+)(?:\s+([A-Za-z]{3,4}))?$/.exec(value.trim());
  if (!match || (match[1] && match[3]) || !isAmountString(match[2]!, 2)) return undefined;
  const code = (match[1] ?? match[3])?.toUpperCase();
  if (code === undefined) return { amount: match[2]!, currency: null };
  return (currencyCodes as readonly string[]).includes(code) ? { amount: match[2]!, currency: code as CurrencyCode } : undefined;
}

/**
 * A Phone property for display and dialling: E.164 (`+41446681800`, for `tel:` links) and the
 * international form (`+41 44 668 18 00`); a Swiss number written nationally gets +41. Undefined
 * when it is not a valid number (stored before the check, say).
 */
export function phoneNumberDisplay(value: string): { e164: string; display: string } | undefined {
  const parsed = parsePhoneNumberFromString(value.trim(), 'CH');
  return parsed?.isValid() ? { e164: parsed.number, display: parsed.formatInternational() } : undefined;
}

const URL_PATTERN = /^https?:\/\/[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?([/?#]\S*)?$/i;
const EMAIL_PATTERN = z.regexes.email;

/**
 * The message for an additional property value of `type`, or undefined when it is fine:
 * Text any non-blank text; Email an address; Phone a number valid for its country (international
 * form, or Swiss when written nationally); Link an http(s) URL; Date YYYY-MM-DD (spec §5 date
 * rule); Barcode printable ASCII (Code 128 set) up to 80 characters; ReferenceNumber a QR
 * reference (27 digits, mod 10) or a creditor reference (ISO 11649); Amount a decimal with at
 * most 2 decimals, optionally with a currency code of spec §3 (`parseAmountProperty`); InternalLink a path of this application ('/company/…').
 */
export function additionalPropertyMessage(type: number, value: string): string | undefined {
  const v = value.trim();
  if (v === '') return m.fieldMustBeGiven;
  switch (type) {
    case AdditionalPropertyType.Text:
      return undefined;
    case AdditionalPropertyType.Email:
      return v === value && EMAIL_PATTERN.test(v) ? undefined : m.emailInvalid;
    case AdditionalPropertyType.Phone:
      return isValidPhoneNumber(v, 'CH') ? undefined : m.phoneInvalid;
    case AdditionalPropertyType.Link:
      return URL_PATTERN.test(v) ? undefined : m.linkInvalid;
    case AdditionalPropertyType.Date:
      return isValidIsoDate(v) ? undefined : m.dateInvalid;
    case AdditionalPropertyType.Barcode:
      return /^[\x20-\x7E]{1,80}$/.test(v) ? undefined : m.barcodeInvalid;
    case AdditionalPropertyType.ReferenceNumber: {
      const compact = v.replace(/\s+/g, '').toUpperCase();
      return isValidQrReference(compact) || isValidCreditorReference(compact) ? undefined : m.referenceNumberInvalid;
    }
    case AdditionalPropertyType.Amount:
      return parseAmountProperty(v) ? undefined : m.amountInvalid;
    case AdditionalPropertyType.InternalLink:
      return /^\/(?!\/)[A-Za-z0-9\-._~/%?=&]*$/.test(v) ? undefined : m.internalLinkInvalid;
    default:
      return m.additionalPropertyTypeUnknown;
  }
}

/**
 * Canonical stored form: trimmed; reference numbers without spaces and uppercased; amounts as
 * '1234.50' or '1234.50 EUR' (code after the amount, upper case).
 */
export function normalizeAdditionalPropertyValue(type: number, value: string): string {
  const v = value.trim();
  if (type === AdditionalPropertyType.ReferenceNumber) return v.replace(/\s+/g, '').toUpperCase();
  if (type === AdditionalPropertyType.Amount) {
    const parsed = parseAmountProperty(v);
    if (parsed) return parsed.currency ? `${parsed.amount} ${parsed.currency}` : parsed.amount;
  }
  return v;
}

/** `/additional-property/insert {data}` (spec §7.1 "insert (with company)"). */
export const additionalPropertyInsertSchema = strictObject({
  company: strictObject({ uuid: zUuid }, m.fieldMustBeGiven),
  type: z.literal(additionalPropertyTypeIds, { error: ruleError(m.additionalPropertyTypeUnknown, m.typeMustBeGiven) }),
  name: zRequiredText.max(100, { error: m.propertyNameTooLong }),
  value: z.string({ error: ruleError(m.fieldMustBeGiven, m.fieldMustBeGiven) }).max(2000, { error: m.propertyValueTooLong }),
}).superRefine((property, ctx) => {
  if (typeof property.type !== 'number' || typeof property.value !== 'string') return;
  const message = additionalPropertyMessage(property.type, property.value);
  if (message) ctx.addIssue({ code: 'custom', message, path: ['value'], input: property.value });
});
export type AdditionalPropertyInsert = z.infer<typeof additionalPropertyInsertSchema>;

/**
 * General Settings form (spec §2.7), editable by owner and admin: workplace name, VAT percent
 * (1–99, shown ×100 of the stored fraction; '' or null clears it), VAT number (Swiss UID with
 * optional MWST/TVA/IVA suffix, eCH-0097) and default currency. Absent fields stay unchanged.
 */
export const instanceSettingsSchema = strictObject({
  name: zRequiredText.max(100, { error: m.instanceNameTooLong }).optional(),
  vat: onboardingExtraSchema.shape.vat,
  vatNumber: zOptionalUid,
  currency: onboardingExtraSchema.shape.currency.optional(),
});
export type InstanceSettings = z.infer<typeof instanceSettingsSchema>;
