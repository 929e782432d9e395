/**
 * Companies, their addresses and payment profiles: the functions other modules call. (Issue #4
 * adds the company API and screens; onboarding uses these to record the instance's own company.)
 */
import type { Tx } from '../../db/database.js';

export interface CompanyInput {
  name: string;
  /** Swiss UID (eCH-0097), e.g. CHE-123.456.789. */
  uid?: string | null;
}

export interface AddressInput {
  street: string;
  houseNumber?: string | null;
  zip: string;
  city: string;
  countryId: number;
}

export interface PaymentProfileInput {
  companyUuid: string;
  accountId: number | null;
  /** PaymentProfileType (spec §3). */
  typeId: number;
  /** IBAN/QR-IBAN, normalised (no spaces), or a public address for ledger types. */
  iban: string | null;
  bic: string | null;
}

/** Creates a company; returns its uuid. */
export async function createCompany(tx: Tx, instanceId: string, input: CompanyInput): Promise<string> {
  const [row] = await tx.query<{ uuid: string }>('INSERT INTO company (instance_id, name, uid) VALUES ($1, $2, $3) RETURNING uuid', [
    instanceId,
    input.name.trim(),
    input.uid?.trim() || null,
  ]);
  return row!.uuid;
}

/** Adds an address to a company; returns its per-instance id. */
export async function createAddress(tx: Tx, instanceId: string, companyUuid: string, input: AddressInput): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO address (instance_id, id, company_uuid, street, house_number, zip, city, country_id)
     VALUES ($1, next_ids($1, 'address'), $2, $3, $4, $5, $6, $7) RETURNING id`,
    [instanceId, companyUuid, input.street.trim(), input.houseNumber?.trim() || null, input.zip.trim(), input.city.trim(), input.countryId],
  );
  return row!.id;
}

/** Adds a payment profile (bank account or public-ledger address) to a company; returns its id. */
export async function createPaymentProfile(tx: Tx, instanceId: string, input: PaymentProfileInput): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO payment_profile (instance_id, id, company_uuid, account_id, type_id, iban, bic)
     VALUES ($1, next_ids($1, 'payment_profile'), $2, $3, $4, $5, $6) RETURNING id`,
    [instanceId, input.companyUuid, input.accountId, input.typeId, input.iban, input.bic],
  );
  return row!.id;
}

/** True when the company exists in the instance (RLS hides other instances' companies). */
export async function companyExists(tx: Tx, instanceId: string, companyUuid: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, companyUuid]);
  return rows.length > 0;
}
