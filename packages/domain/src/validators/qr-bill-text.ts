/**
 * Company name and postal address fields that always fit a Swiss QR-bill (SIX Implementation
 * Guidelines QR-bill v2.3 §4.3.2 address type S, character set of §4.1.1 as widened by SPS 2025).
 * A company is a creditor (own company) or a debtor (customer) of a QR-bill, so its data is held to
 * these rules when it is entered, not only when a PDF is rendered and it is too late to fix.
 */
import { z } from 'zod';
import { qrBillCharacterMessage, qrBillLengthMessage, validationMessages as m } from '../messages.js';
import { isQrBillText } from '../qrbill.js';
import { missingError } from './common.js';

/**
 * Maximum lengths in characters (IG v2.3 §4.3.2, address type S): name 70, street 70, building
 * number 16, postcode 16, town 35. `label` is the field as the forms name it.
 */
export const QR_BILL_FIELDS = {
  name: { label: 'Name', max: 70 },
  street: { label: 'Street', max: 70 },
  houseNumber: { label: 'House number', max: 16 },
  zip: { label: 'ZIP', max: 16 },
  city: { label: 'City', max: 35 },
} as const;
export type QrBillField = keyof typeof QR_BILL_FIELDS;

/** The first character a Swiss payment may not carry (SPS 2025 set), or undefined. */
export function firstNonQrBillCharacter(value: string): string | undefined {
  for (const character of value) if (!isQrBillText(character)) return character;
  return undefined;
}

/**
 * The message for `value` (already trimmed) in the QR-bill field `field`, or undefined when it
 * fits: too long → 'Name must be at most 70 characters for Swiss QR-bills'; a character outside
 * the set → 'Character "Ω" cannot be used in Swiss payments'. Length counts Unicode characters of
 * the NFC form, as the QR code carries them.
 */
export function qrBillFieldMessage(field: QrBillField, value: string): string | undefined {
  const { label, max } = QR_BILL_FIELDS[field];
  const text = value.normalize('NFC');
  if (Array.from(text).length > max) return qrBillLengthMessage(label, max);
  const bad = firstNonQrBillCharacter(text);
  return bad === undefined ? undefined : qrBillCharacterMessage(bad);
}

const qrBillCheck = (field: QrBillField) => (value: string, ctx: z.core.$RefinementCtx<string>) => {
  const message = qrBillFieldMessage(field, value);
  if (message) ctx.addIssue({ code: 'custom', message, input: value });
};

/**
 * Required QR-bill text field: trimmed, NFC-normalised (a decomposed 'é' is one allowed
 * character, not 'e' plus a refused combining accent), 'This field must be given' when blank
 * (spec §5), then `qrBillFieldMessage`.
 */
export const zQrBillText = (field: QrBillField) =>
  z
    .string({ error: missingError(m.fieldMustBeGiven) })
    .trim()
    .normalize('NFC')
    .min(1, { error: m.fieldMustBeGiven })
    .superRefine(qrBillCheck(field));

/** Optional QR-bill text field (building number): absent, null or '' mean none. */
export const zOptionalQrBillText = (field: QrBillField) => z.string().trim().normalize('NFC').superRefine(qrBillCheck(field)).nullish();
