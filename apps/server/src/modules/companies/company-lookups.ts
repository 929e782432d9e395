/**
 * Batch lookups other modules ask of companies for the display data and checks of their documents
 * (issue 11 §3: one owner per table). Each takes a list and answers with one query, so a list of
 * documents costs one call per kind of party, never one per row. Re-exported by companies.service.ts.
 */
import type { Tx } from '../../db/database.js';
import { containsPattern, selectAddresses, type Address } from './companies.sql.js';

/** A company's name and UID (CHE-…, as entered), by uuid. */
export interface CompanyHead {
  uuid: string;
  name: string;
  uid: string | null;
}

/** The instance's companies among `uuids`, by uuid; unknown uuids are absent from the map. */
export async function companiesByUuid(tx: Tx, instanceId: string, uuids: readonly string[]): Promise<Map<string, CompanyHead>> {
  if (uuids.length === 0) return new Map();
  const rows = await tx.query<CompanyHead & Record<string, unknown>>('SELECT uuid, name, uid FROM company WHERE instance_id = $1 AND uuid = ANY($2::uuid[])', [
    instanceId,
    [...new Set(uuids)],
  ]);
  return new Map(rows.map((row) => [row.uuid, row]));
}

/** Every company of the instance, sorted by name (case-insensitive): the choices of a document form. */
export async function listCompanyHeads(tx: Tx, instanceId: string): Promise<CompanyHead[]> {
  return tx.query<CompanyHead & Record<string, unknown>>('SELECT uuid, name, uid FROM company WHERE instance_id = $1 ORDER BY lower(name)', [instanceId]);
}

/** Uuids of the companies whose name contains `text` (case-insensitive, wildcards literal): a document search by customer. */
export async function companyUuidsNamed(tx: Tx, instanceId: string, text: string): Promise<string[]> {
  const rows = await tx.query<{ uuid: string }>('SELECT uuid FROM company WHERE instance_id = $1 AND name ILIKE $2', [instanceId, containsPattern(text)]);
  return rows.map((row) => row.uuid);
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
