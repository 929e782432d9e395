/**
 * The invoice e-mail per language (issue 15 §1), editable per instance on the settings page. A
 * template is plain text with placeholders in double braces; unknown placeholders stay as written
 * so a typo is visible in the preview rather than silently empty.
 */
import type { Tx } from '../../db/database.js';

export const TEMPLATE_LANGS = ['de', 'fr', 'it', 'en'] as const;
export type TemplateLang = (typeof TEMPLATE_LANGS)[number];

/** The placeholders an invoice template may use, with what they stand for. */
export const INVOICE_PLACEHOLDERS = {
  refNumber: 'invoice number',
  customer: "customer's name",
  contact: "contact person's name",
  total: 'total with currency, e.g. CHF 1 234.50',
  dateDue: 'due date (DD.MM.YYYY)',
  link: 'link to view the invoice online',
  sender: 'your company name',
} as const;
export type InvoicePlaceholder = keyof typeof INVOICE_PLACEHOLDERS;

export interface MessageTemplate {
  kind: 'invoice';
  lang: TemplateLang;
  subject: string;
  body: string;
  /** False while the built-in default applies (nothing stored for the language). */
  isCustom: boolean;
}

const DEFAULTS: Record<TemplateLang, { subject: string; body: string }> = {
  de: {
    subject: 'Rechnung {{refNumber}} von {{sender}}',
    body:
      'Guten Tag {{contact}}\n\nIm Anhang erhalten Sie unsere Rechnung {{refNumber}} über {{total}}, zahlbar bis {{dateDue}}. ' +
      'Sie können sie auch online ansehen: {{link}}\n\nFreundliche Grüsse\n{{sender}}',
  },
  fr: {
    subject: 'Facture {{refNumber}} de {{sender}}',
    body:
      'Bonjour {{contact}}\n\nVeuillez trouver ci-joint notre facture {{refNumber}} de {{total}}, payable jusqu’au {{dateDue}}. ' +
      'Vous pouvez aussi la consulter en ligne : {{link}}\n\nMeilleures salutations\n{{sender}}',
  },
  it: {
    subject: 'Fattura {{refNumber}} di {{sender}}',
    body:
      'Buongiorno {{contact}}\n\nIn allegato trova la nostra fattura {{refNumber}} di {{total}}, pagabile entro il {{dateDue}}. ' +
      'Può consultarla anche online: {{link}}\n\nCordiali saluti\n{{sender}}',
  },
  en: {
    subject: 'Invoice {{refNumber}} from {{sender}}',
    body:
      'Hello {{contact}}\n\nPlease find attached our invoice {{refNumber}} for {{total}}, due on {{dateDue}}. ' +
      'You can also view it online: {{link}}\n\nKind regards\n{{sender}}',
  },
};

/** The four invoice templates of the instance: stored ones, else the defaults. */
export async function invoiceTemplates(tx: Tx): Promise<MessageTemplate[]> {
  const rows = await tx.query<{ lang: TemplateLang; subject: string; body: string }>("SELECT lang, subject, body FROM message_template WHERE kind = 'invoice'");
  return TEMPLATE_LANGS.map((lang) => {
    const stored = rows.find((row) => row.lang === lang);
    return { kind: 'invoice', lang, subject: stored?.subject ?? DEFAULTS[lang].subject, body: stored?.body ?? DEFAULTS[lang].body, isCustom: Boolean(stored) };
  });
}

/** Stores the instance's invoice template of `lang` (insert or replace). */
export async function saveInvoiceTemplate(tx: Tx, instanceId: string, userId: string | null, lang: TemplateLang, subject: string, body: string): Promise<MessageTemplate> {
  await tx.query(
    `INSERT INTO message_template (instance_id, kind, lang, subject, body, updated_by) VALUES ($1, 'invoice', $2, $3, $4, $5)
     ON CONFLICT (instance_id, kind, lang) DO UPDATE SET subject = EXCLUDED.subject, body = EXCLUDED.body, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [instanceId, lang, subject, body, userId],
  );
  return { kind: 'invoice', lang, subject, body, isCustom: true };
}

/** Drops the stored template of `lang`: the default applies again. */
export async function resetInvoiceTemplate(tx: Tx, lang: TemplateLang): Promise<MessageTemplate> {
  await tx.query("DELETE FROM message_template WHERE kind = 'invoice' AND lang = $1", [lang]);
  return { kind: 'invoice', lang, ...DEFAULTS[lang], isCustom: false };
}

/** `text` with each `{{name}}` of `values` replaced; other braces stay as written. */
export function fillTemplate(text: string, values: Partial<Record<InvoicePlaceholder, string>>): string {
  return text.replace(/\{\{\s*([a-zA-Z]+)\s*\}\}/g, (whole, name: string) => values[name as InvoicePlaceholder] ?? whole);
}
