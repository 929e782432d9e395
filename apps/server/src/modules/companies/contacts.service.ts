/**
 * Contact people of a company (issue 15 §1): name, e-mail, invoice language and payment terms.
 * The invoice form proposes their language and terms; the invoice e-mail goes to the chosen ones.
 */
import type { ContactData, ContactInsert, ContactLang } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { companyError } from './companies.errors.js';
import { requireCompany } from './companies.service.js';

/** A contact as the API answers it. */
export interface Contact {
  id: number;
  company: { uuid: string };
  name: string;
  email: string;
  lang: ContactLang;
  /** Days from invoice date to due date; null = the instance's default terms. */
  paymentTermsDays: number | null;
}

type Row = { id: number; company_uuid: string; name: string; email: string; lang: ContactLang; payment_terms_days: number | null };
const COLUMNS = 'id, company_uuid, name, email, lang, payment_terms_days';
const toContact = (row: Row): Contact => ({
  id: row.id,
  company: { uuid: row.company_uuid },
  name: row.name,
  email: row.email,
  lang: row.lang,
  paymentTermsDays: row.payment_terms_days,
});

const contactNotFound = (id: number, field = 'id') => companyError('contact_not_found', `contact ${id} not found`, { [field]: 'contact not found' });

/** The contacts of one company (404 unknown company), in insertion order. */
export async function listContacts(tx: Tx, instanceId: string, companyUuid: string): Promise<Contact[]> {
  await requireCompany(tx, instanceId, companyUuid, 'company.uuid');
  const rows = await tx.query<Row>(`SELECT ${COLUMNS} FROM company_contact WHERE company_uuid = $1 ORDER BY id`, [companyUuid]);
  return rows.map(toContact);
}

/** Contacts by id, in the order asked; 404 naming `field` for an id the instance does not have. */
export async function contactsByIds(tx: Tx, ids: readonly number[], field = 'contactIds'): Promise<Contact[]> {
  const rows = await tx.query<Row>(`SELECT ${COLUMNS} FROM company_contact WHERE id = ANY ($1::int[])`, [[...ids]]);
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw contactNotFound(id, field);
    return toContact(row);
  });
}

export async function insertContact(tx: Tx, instanceId: string, data: ContactInsert): Promise<Contact> {
  await requireCompany(tx, instanceId, data.company.uuid, 'company.uuid');
  const [row] = await tx.query<Row>(
    `INSERT INTO company_contact (instance_id, id, company_uuid, name, email, lang, payment_terms_days)
     VALUES ($1, next_ids($1, 'company_contact'), $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [instanceId, data.company.uuid, data.name, data.email, data.lang, data.paymentTermsDays],
  );
  return toContact(row!);
}

export async function updateContact(tx: Tx, id: number, data: ContactData): Promise<Contact> {
  const [row] = await tx.query<Row>(
    `UPDATE company_contact SET name = $2, email = $3, lang = $4, payment_terms_days = $5 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, data.name, data.email, data.lang, data.paymentTermsDays],
  );
  if (!row) throw contactNotFound(id);
  return toContact(row);
}

export async function deleteContact(tx: Tx, id: number): Promise<void> {
  const rows = await tx.query('DELETE FROM company_contact WHERE id = $1 RETURNING id', [id]);
  if (rows.length === 0) throw contactNotFound(id);
}
