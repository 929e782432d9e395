/**
 * How an additional property is shown, by its AdditionalPropertyType (spec §3): pure functions,
 * so the rules are unit-tested without a browser; `PropertyValue` (properties.tsx) draws them.
 */
import JsBarcode from 'jsbarcode';
import {
  AdditionalPropertyType as T,
  formatAmount,
  formatCreditorReference,
  formatDate,
  formatQrReference,
  isValidCreditorReference,
  isValidIsoDate,
  isValidQrReference,
  parseAmountProperty,
  phoneNumberDisplay,
} from '@bilan/domain';
import { msg } from '../../lib/i18n';

export type PropertyDisplay =
  | { kind: 'text'; text: string; mono?: boolean }
  /** An http(s) page, opened in a new tab without access to this one (rel noopener). */
  | { kind: 'external'; href: string; text: string }
  | { kind: 'mailto'; href: string; text: string }
  | { kind: 'tel'; href: string; text: string }
  /** A path of this application, followed by the router. */
  | { kind: 'internal'; to: string; text: string }
  | { kind: 'reference'; text: string; label: 'QR reference' | 'Creditor reference'; valid: boolean }
  | { kind: 'barcode'; barcode: Barcode };

/** A linear barcode as modules (1 = bar, 0 = space) with the symbology used and the human-readable text. */
export interface Barcode {
  format: 'EAN-13' | 'Code 128';
  modules: string;
  text: string;
}

/** True for a GTIN-13 (13 digits, GS1 mod-10 check digit), which shops scan as EAN-13. */
export function isGtin13(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  const sum = [...value.slice(0, 12)].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === Number(value[12]);
}

/**
 * The bars of a Barcode property (printable ASCII, validated on entry): EAN-13 for a GTIN-13,
 * Code 128 for anything else. Encoded by JsBarcode's object renderer (no DOM); undefined when the
 * value cannot be encoded (e.g. stored before the check).
 */
export function encodeBarcode(value: string): Barcode | undefined {
  const format = isGtin13(value) ? 'EAN13' : 'CODE128';
  const target: { encodings?: { data: string }[] } = {};
  let valid = true;
  try {
    JsBarcode(target, value, { format, valid: (ok: boolean) => (valid = ok) });
  } catch {
    return undefined;
  }
  if (!valid || !target.encodings?.length) return undefined;
  return { format: format === 'EAN13' ? 'EAN-13' : 'Code 128', modules: target.encodings.map((e) => e.data).join(''), text: value };
}

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * The display of a property value of `type`; `currency` is the instance currency, used for an
 * Amount without its own code. A value that does not meet its type's rule (stored before a rule
 * tightened) falls back to plain text, never to a link.
 */
export function propertyDisplay(type: number, value: string, currency: string): PropertyDisplay {
  const v = value.trim();
  switch (type) {
    case T.Email: {
      const at = v.lastIndexOf('@');
      if (at < 1 || /[\s?&#/\\]/.test(v)) return { kind: 'text', text: v };
      // The local part encoded, so nothing in it can add mailto headers (?cc=, &body=).
      return { kind: 'mailto', href: `mailto:${encodeURIComponent(v.slice(0, at))}@${v.slice(at + 1)}`, text: v };
    }
    case T.Phone: {
      const phone = phoneNumberDisplay(v);
      return phone ? { kind: 'tel', href: `tel:${phone.e164}`, text: phone.display } : { kind: 'text', text: v };
    }
    case T.Link:
      return isHttpUrl(v) ? { kind: 'external', href: v, text: v } : { kind: 'text', text: v };
    case T.InternalLink:
      return /^\/(?!\/)/.test(v) && !v.includes('\\') ? { kind: 'internal', to: v, text: v } : { kind: 'text', text: v };
    case T.Date:
      return { kind: 'text', text: isValidIsoDate(v) ? formatDate(v) : v };
    case T.Amount: {
      const amount = parseAmountProperty(v);
      return amount ? { kind: 'text', text: `${formatAmount(amount.amount)} ${amount.currency ?? currency}` } : { kind: 'text', text: v };
    }
    case T.ReferenceNumber: {
      const compact = v.replace(/\s+/g, '').toUpperCase();
      if (compact.startsWith('RF')) return { kind: 'reference', label: msg('Creditor reference'), text: formatCreditorReference(compact), valid: isValidCreditorReference(compact) };
      return { kind: 'reference', label: msg('QR reference'), text: formatQrReference(compact), valid: isValidQrReference(compact) };
    }
    case T.Barcode: {
      const barcode = encodeBarcode(v);
      return barcode ? { kind: 'barcode', barcode } : { kind: 'text', text: v, mono: true };
    }
    default:
      return { kind: 'text', text: v };
  }
}
