/**
 * The instance's letterhead (issue 15 §6): an optional logo and a contact block printed on its
 * documents (invoices, quotes, credit notes, reminders). Owned by the instances module (table
 * `instance_letterhead`, migration 0041); documents read it through `instanceLetterhead`.
 */
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';

/** PNG or JPEG, at most 512 KiB: a logo, not a photograph (the PDF embeds it once per document). */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

export interface Letterhead {
  logo: { type: LogoType; bytes: Buffer } | null;
  phone: string;
  email: string;
  website: string;
}

export interface LetterheadInput {
  phone?: string | undefined;
  email?: string | undefined;
  website?: string | undefined;
  /** A new logo (base64 of the file's bytes), null to remove it, absent to keep it. */
  logo?: { type: string; data: string } | null | undefined;
}

const EMPTY: Letterhead = { logo: null, phone: '', email: '', website: '' };

/** The letterhead of the instance; an empty one (no logo, no contact) when none was set. */
export async function instanceLetterhead(tx: Tx, instanceId: string): Promise<Letterhead> {
  const [row] = await tx.query<{ logo: Uint8Array | null; logo_type: LogoType | null; phone: string; email: string; website: string }>(
    'SELECT logo, logo_type, phone, email, website FROM instance_letterhead WHERE instance_id = $1',
    [instanceId],
  );
  if (!row) return EMPTY;
  return {
    logo: row.logo && row.logo_type ? { type: row.logo_type, bytes: Buffer.from(row.logo) } : null,
    phone: row.phone,
    email: row.email,
    website: row.website,
  };
}

/** The contact block's lines as printed, in this order: phone, e-mail, website (empty ones left out). */
export const contactLines = (letterhead: Pick<Letterhead, 'phone' | 'email' | 'website'>): string[] =>
  [letterhead.phone, letterhead.email, letterhead.website].map((line) => line.trim()).filter(Boolean);

/** The file's own signature decides, not the declared type: a renamed file is refused. */
function logoOf(input: { type: string; data: string }): { type: LogoType; bytes: Buffer } {
  const fail = (message: string) => new AppError('validation', `logo: ${message}`, { logo: message });
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.data)) throw fail('is not base64 data');
  const bytes = Buffer.from(input.data, 'base64');
  if (bytes.length === 0) throw fail('is empty');
  if (bytes.length > LOGO_MAX_BYTES) throw fail(`is ${Math.ceil(bytes.length / 1024)} KB; a logo may have at most ${LOGO_MAX_BYTES / 1024} KB`);
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!png && !jpeg) throw fail('must be a PNG or JPEG image');
  return { type: png ? 'image/png' : 'image/jpeg', bytes };
}

/**
 * Saves the letterhead (upsert of the instance's one row, so parallel saves leave one row): the
 * contact fields given replace the stored ones, `logo` replaces (or with null removes) the logo.
 * 400 `logo` (not PNG/JPEG by its bytes, empty, above 512 KiB), `email`, `website` (http(s) URL or a
 * host name), `phone`. Answers the letterhead as stored.
 */
export async function saveLetterhead(tx: Tx, instanceId: string, input: LetterheadInput): Promise<Letterhead> {
  const fields: Record<string, string> = {};
  const phone = input.phone?.trim();
  const email = input.email?.trim();
  const website = input.website?.trim();
  if (phone !== undefined && (phone.length > 40 || !/^[+0-9 ()./-]*$/.test(phone))) fields.phone = 'a phone number of digits, spaces and + ( ) . / - (at most 40)';
  if (email !== undefined && email !== '' && (email.length > 200 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))) fields.email = 'not an e-mail address';
  if (website !== undefined && website !== '' && (website.length > 200 || !/^(https?:\/\/)?[a-z0-9-]+(\.[a-z0-9-]+)+(\/\S*)?$/i.test(website))) {
    fields.website = 'a web address such as www.muster.ch or https://muster.ch';
  }
  const [first] = Object.entries(fields);
  if (first) throw new AppError('validation', `${first[0]}: ${first[1]}`, fields);
  const logo = input.logo === undefined ? undefined : input.logo === null ? null : logoOf(input.logo);
  await tx.query(
    `INSERT INTO instance_letterhead (instance_id, logo, logo_type, phone, email, website)
     VALUES ($1, $3, $4, coalesce($5, ''), coalesce($6, ''), coalesce($7, ''))
     ON CONFLICT (instance_id) DO UPDATE SET
       logo = CASE WHEN $2 THEN excluded.logo ELSE instance_letterhead.logo END,
       logo_type = CASE WHEN $2 THEN excluded.logo_type ELSE instance_letterhead.logo_type END,
       phone = coalesce($5, instance_letterhead.phone),
       email = coalesce($6, instance_letterhead.email),
       website = coalesce($7, instance_letterhead.website),
       updated_at = now()`,
    [instanceId, logo !== undefined, logo?.bytes ?? null, logo?.type ?? null, phone ?? null, email ?? null, website ?? null],
  );
  return instanceLetterhead(tx, instanceId);
}
