/** Payment profile form (spec §5 "Payment profile form", §3 "Payment profile"). */
import { z } from 'zod';
import { PaymentProfileType, ledgerPaymentProfileTypes, offeredPaymentProfileTypes } from '../enums.js';
import { validationMessages as m } from '../messages.js';
import { isValidBic } from '../validators/bic.js';
import { ruleError, strictObject, whenFieldsValid, zIdWith, zUuid } from '../validators/common.js';
import { isQrIban, isValidIban } from '../validators/iban.js';
import { isValidLedgerAddress } from '../validators/ledger-address.js';

const isBlank = (value: string | null | undefined): boolean => value === null || value === undefined || value.trim() === '';

/** True for the kinds whose account is an IBAN (spec §5: IBAN and QR bill). */
export function isIbanPaymentProfileType(type: number): boolean {
  return type === PaymentProfileType.Iban || type === PaymentProfileType.QrBill;
}

/**
 * Spec §5: changing the type to one that is neither IBAN nor QR bill clears iban and bic; true when
 * the form must clear them for `type`.
 */
export function clearIbanOnTypeChange(type: number): boolean {
  return !isIbanPaymentProfileType(type);
}

/**
 * The spec §5 message for the iban field of a payment profile of `type`, or undefined when it is
 * fine: empty → 'IBAN must not be empty' ('Public address must not be empty' for public-ledger
 * kinds); IBAN kind → IBAN check; QR bill kind → QR-IBAN check; ledger kinds → address check
 * (`isValidLedgerAddress`). Type 0 (none) checks nothing.
 */
export function ibanMessageForType(type: number, iban: string | null | undefined): string | undefined {
  if (type === PaymentProfileType.Expense) return undefined;
  if (isBlank(iban)) return ledgerPaymentProfileTypes.includes(type) ? m.publicAddressMustNotBeEmpty : m.ibanMustNotBeEmpty;
  if (type === PaymentProfileType.Iban && !isValidIban(iban)) return m.ibanWronglyFormatted;
  if (type === PaymentProfileType.QrBill && !isQrIban(iban)) return m.qrIbanInvalid;
  // Ours (spec §5 only asks for presence): EIP-55 for EVM chains, 32-byte base58 keys for Solana.
  if (ledgerPaymentProfileTypes.includes(type) && !isValidLedgerAddress(type, iban!.trim())) return m.publicAddressInvalid;
  return undefined;
}

/** Optional BIC: absent, null or '' mean none; otherwise it must pass the spec §5 BIC rule. */
export const zOptionalBic = z
  .string()
  .refine((value) => value === '' || isValidBic(value), { error: m.bicWronglyFormatted })
  .nullish();

const offeredTypes = offeredPaymentProfileTypes as readonly number[];

/**
 * Payment profile form, shared by the settings form and its insert route (spec §5). Messages land
 * on 'account', 'type', 'iban' and 'bic'; type 0 counts as not given.
 */
const paymentProfileShape = {
  account: strictObject({ id: zIdWith(m.accountMustNotBeEmpty) }, m.accountMustNotBeEmpty),
  type: z
    .number({ error: ruleError(m.typeMustBeGiven, m.typeMustBeGiven) })
    .refine((type) => type !== PaymentProfileType.Expense, { error: m.typeMustBeGiven, abort: true })
    .refine((type) => offeredTypes.includes(type), { error: m.paymentProfileTypeNotOffered }),
  iban: z.string().nullish(),
  bic: zOptionalBic,
};

/** The cross-field rules of the payment profile form: iban by type (spec §5), bic only for IBAN kinds. */
function withProfileRules<T extends z.ZodType<{ type: number; iban?: string | null | undefined; bic?: string | null | undefined }>>(schema: T): T {
  return schema
    .superRefine(
      (profile, ctx) => {
        const message = ibanMessageForType(profile.type, profile.iban);
        if (message) ctx.addIssue({ code: 'custom', message, path: ['iban'], input: profile.iban });
      },
      { when: whenFieldsValid('type', 'iban') },
    )
    .superRefine(
      (profile, ctx) => {
        // Spec §3: bic exists only for IBAN kinds; spec §5 clears it when the type changes away.
        if (!isBlank(profile.bic) && !isIbanPaymentProfileType(profile.type)) {
          ctx.addIssue({ code: 'custom', message: m.bicOnlyForIban, path: ['bic'], input: profile.bic });
        }
      },
      { when: whenFieldsValid('type', 'bic') },
    ) as unknown as T;
}

/**
 * Payment profile form, shared by the settings form and its insert route (spec §5). Messages land
 * on 'account', 'type', 'iban' and 'bic'; type 0 counts as not given.
 */
export const paymentProfileFormSchema = withProfileRules(strictObject(paymentProfileShape));

/**
 * Body `data` of /api/payment-profile/insert: the form plus the owning company (spec §7.1
 * "insert {company, account{id}, type, iban, bic}"); absent company → the workplace's own.
 */
export const paymentProfileInsertSchema = withProfileRules(
  strictObject({ ...paymentProfileShape, company: strictObject({ uuid: zUuid }, m.fieldMustBeGiven).nullish() }),
);
export type PaymentProfileInsert = z.infer<typeof paymentProfileInsertSchema>;
export type PaymentProfileForm = z.infer<typeof paymentProfileFormSchema>;
