/**
 * A customer's contact person (issue 15 §1): who receives its invoices by e-mail, in which language,
 * and the payment terms the invoice form proposes. One schema for the form and the route (STYLE.md #3).
 */
import { z } from 'zod';
import { strictObject, zEmail, zUuid } from '../validators/common.js';

export const contactLangs = ['de', 'fr', 'it', 'en'] as const;
export type ContactLang = (typeof contactLangs)[number];

/** A contact's fields; `paymentTermsDays` null = the instance's default terms. */
export const contactDataSchema = strictObject({
  name: z.string().trim().min(1, 'This field is required').max(200),
  email: zEmail,
  lang: z.enum(contactLangs).default('de'),
  paymentTermsDays: z.number().int('must be an integer').min(0, 'negative numbers are not accepted').max(365).nullable().default(null),
});
export type ContactData = z.output<typeof contactDataSchema>;

export const contactInsertSchema = contactDataSchema.extend({ company: strictObject({ uuid: zUuid }) });
export type ContactInsert = z.output<typeof contactInsertSchema>;
