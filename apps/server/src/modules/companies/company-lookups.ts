/**
 * Batch look-ups other modules ask of companies for display and matching (issue 11 §3: the owner
 * answers, one query per list, never one per row). Bills, payment runs and mail imports use them
 * instead of joining company, address and payment_profile; invoices for their customers. Exported
 * through companies.service.ts.
 */
import type { Tx } from '../../db/database.js';
import { selectAddresses, type Address } from './companies.sql.js';

/** Names of the companies `uuids` (unknown ones are absent from the map). */
export async function companyNames(tx: Tx, instanceId: string, uuids: Iterable<string>): Promise<Map<string, string>> {
  const list = [...new Set(uuids)];
  if (!list.length) return new Map();
  const rows = await tx.query<{ uuid: string; name: string }>('SELECT uuid, name FROM company WHERE instance_id = $1 AND uuid = ANY($2::uuid[])', [
    instanceId,
    list,
  ]);
  return new Map(rows.map((row) => [row.uuid, row.name]));
}

/** Every company of the instance (uuid and name), oldest first (then by uuid). */
export async function companiesByAge(tx: Tx, instanceId: string): Promise<{ uuid: string; name: string }[]> {
  return tx.query<{ uuid: string; name: string }>('SELECT uuid, name FROM company WHERE instance_id = $1 ORDER BY created_at, uuid', [instanceId]);
}

/** The first address (lowest id) of each company in `uuids`, structured as stored (QR-bill type S). */
export async function firstAddresses(
  tx: Tx,
  instanceId: string,
  uuids: Iterable<string>,
): Promise<Map<string, { street: string; houseNumber: string | null; zip: string; city: string; countryId: number }>> {
  const list = [...new Set(uuids)];
  if (!list.length) return new Map();
  const rows = await tx.query<{ company_uuid: string; street: string; house_number: string | null; zip: string; city: string; country_id: number }>(
    `SELECT DISTINCT ON (company_uuid) company_uuid, street, house_number, zip, city, country_id FROM address
      WHERE instance_id = $1 AND company_uuid = ANY($2::uuid[]) ORDER BY company_uuid, id`,
    [instanceId, list],
  );
  return new Map(rows.map((a) => [a.company_uuid, { street: a.street, houseNumber: a.house_number, zip: a.zip, city: a.city, countryId: a.country_id }]));
}

/** What documents need of a payment profile: where to pay (IBAN, BIC, type), whose it is, its ledger account. */
export interface PaymentProfileHead {
  id: number;
  companyUuid: string;
  /** PaymentProfileType id (spec §3). */
  type: number;
  iban: string | null;
  bic: string | null;
  accountId: number | null;
  /** Archived (logIsLog): kept for the documents that use it, not for new ones. */
  archived: boolean;
}

/** The payment profiles `ids`, archived ones included (documents keep theirs). */
export async function paymentProfileHeads(tx: Tx, instanceId: string, ids: Iterable<number>): Promise<Map<number, PaymentProfileHead>> {
  const list = [...new Set(ids)];
  if (!list.length) return new Map();
  const rows = await tx.query<{ id: number; company_uuid: string; type_id: number; iban: string | null; bic: string | null; account_id: number | null; log_is_log: boolean }>(
    'SELECT id, company_uuid, type_id, iban, bic, account_id, log_is_log FROM payment_profile WHERE instance_id = $1 AND id = ANY($2::int[])',
    [instanceId, list],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, companyUuid: row.company_uuid, type: row.type_id, iban: row.iban, bic: row.bic, accountId: row.account_id, archived: row.log_is_log },
    ]),
  );
}

/**
 * The active payment profiles of company `companyUuid` (archived ones left out), by id: e.g. the
 * own company's bank accounts that can pay a transaction group.
 */
export async function activeProfilesOf(tx: Tx, instanceId: string, companyUuid: string): Promise<PaymentProfileHead[]> {
  const rows = await tx.query<{ id: number; company_uuid: string; type_id: number; iban: string | null; bic: string | null; account_id: number | null }>(
    `SELECT id, company_uuid, type_id, iban, bic, account_id FROM payment_profile
      WHERE instance_id = $1 AND company_uuid = $2 AND NOT log_is_log ORDER BY id`,
    [instanceId, companyUuid],
  );
  return rows.map((row) => ({ id: row.id, companyUuid: row.company_uuid, type: row.type_id, iban: row.iban, bic: row.bic, accountId: row.account_id, archived: false }));
}

/**
 * The active profile of one of `types` with this IBAN (normalized) of a company other than
 * `exceptCompany`; with several, the one whose company is named `preferName` (trimmed,
 * case-insensitive), else the oldest. With its company's name.
 */
export async function profileByIban(
  tx: Tx,
  instanceId: string,
  query: { iban: string; types: readonly number[]; exceptCompany: string | null; preferName: string },
): Promise<{ id: number; type: number; company: { uuid: string; name: string } } | undefined> {
  const [row] = await tx.query<{ id: number; type_id: number; company_uuid: string; company_name: string }>(
    `SELECT p.id, p.type_id, p.company_uuid, c.name AS company_name
       FROM payment_profile p JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
      WHERE p.instance_id = $1 AND p.iban = $2 AND NOT p.log_is_log AND p.type_id = ANY($3::smallint[])
        AND ($4::uuid IS NULL OR p.company_uuid <> $4)
      ORDER BY (lower(btrim(c.name)) = lower($5)) DESC, p.id
      LIMIT 1`,
    [instanceId, query.iban, [...query.types], query.exceptCompany, query.preferName],
  );
  return row && { id: row.id, type: row.type_id, company: { uuid: row.company_uuid, name: row.company_name } };
}

/**
 * A company other than `exceptCompany` with UID `uid` (preferred), else named `name` (trimmed,
 * case-insensitive); the oldest of several. `byUid` says which matched.
 */
export async function companyByUidOrName(
  tx: Tx,
  instanceId: string,
  query: { uid: string | null; name: string; exceptCompany: string | null },
): Promise<{ uuid: string; name: string; byUid: boolean } | undefined> {
  const [row] = await tx.query<{ uuid: string; name: string; by_uid: boolean }>(
    `SELECT uuid, name, coalesce(uid = $3::text, false) AS by_uid FROM company
      WHERE instance_id = $1 AND ($4::uuid IS NULL OR uuid <> $4) AND (uid = $3::text OR lower(btrim(name)) = lower($2))
      ORDER BY by_uid DESC, created_at, uuid
      LIMIT 1`,
    [instanceId, query.name, query.uid, query.exceptCompany],
  );
  return row && { uuid: row.uuid, name: row.name, byUid: row.by_uid };
}

/** A company's name and UID (CHE-…, as entered), by uuid. */
export interface CompanyHead {
  uuid: string;
  name: string;
  uid: string | null;
}

/** The instance's companies among `uuids`, by uuid; unknown uuids are absent from the map. */
export async function companyHeadsByUuid(tx: Tx, instanceId: string, uuids: readonly string[]): Promise<Map<string, CompanyHead>> {
  if (uuids.length === 0) return new Map();
  const rows = await tx.query<CompanyHead & Record<string, unknown>>('SELECT uuid, name, uid FROM company WHERE instance_id = $1 AND uuid = ANY($2::uuid[])', [
    instanceId,
    [...new Set(uuids)],
  ]);
  return new Map(rows.map((row) => [row.uuid, row]));
}

/**
 * Uuids of the companies matching one key (an import names its customer so): the uuid, the UID's
 * digits (CHE-123.456.789 with or without MWST/TVA/IVA → 123456789) or the exact name (case and
 * surrounding blanks ignored).
 */
export async function findCompanyUuids(
  tx: Tx,
  instanceId: string,
  key: { uuid: string } | { uidDigits: string } | { name: string },
): Promise<string[]> {
  const [where, value] =
    'uuid' in key
      ? ['uuid = $2::uuid', key.uuid]
      : 'uidDigits' in key
        ? [`regexp_replace(coalesce(uid, ''), '[^0-9]', '', 'g') = $2`, key.uidDigits]
        : ['lower(btrim(name)) = lower($2)', key.name];
  const rows = await tx.query<{ uuid: string }>(`SELECT uuid FROM company WHERE instance_id = $1 AND ${where}`, [instanceId, value]);
  return rows.map((row) => row.uuid);
}

/** The instance's addresses among `ids`, by id (each names its company); unknown ids are absent. */
export async function addressesById(tx: Tx, instanceId: string, ids: readonly number[]): Promise<Map<number, Address>> {
  if (ids.length === 0) return new Map();
  const addresses = await selectAddresses(tx, instanceId, { ids: [...new Set(ids)] });
  return new Map(addresses.map((address) => [address.id, address]));
}
