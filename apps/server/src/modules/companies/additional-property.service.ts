/**
 * Additional properties: typed values attached to a company (spec §3 "Additional property",
 * AdditionalPropertyType Text 1 … InternalLink 9). Values are validated by type in
 * `additionalPropertyMessage` (packages/domain) and stored in canonical text form.
 */
import { normalizeAdditionalPropertyValue, type AdditionalPropertyInsert } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { companyError } from './companies.errors.js';
import { requireCompany } from './companies.service.js';

/** Additional property as answered by the API (docs/api.md "AdditionalProperty"). */
export interface AdditionalProperty {
  id: number;
  company: { uuid: string };
  type: number;
  name: string;
  value: string;
}

type Row = { id: number; company_uuid: string; type_id: number; name: string; value: string };
const toProperty = (row: Row): AdditionalProperty => ({ id: row.id, company: { uuid: row.company_uuid }, type: row.type_id, name: row.name, value: row.value });

/** Properties of the instance or of one company (404 unknown company), in insertion order. */
export async function listAdditionalProperties(tx: Tx, instanceId: string, filter: { companyUuid?: string; type?: number }): Promise<AdditionalProperty[]> {
  if (filter.companyUuid) await requireCompany(tx, instanceId, filter.companyUuid, 'filters.company.uuid');
  const rows = await tx.query<Row>(
    `SELECT id, company_uuid, type_id, name, value FROM additional_property
      WHERE instance_id = $1 AND ($2::uuid IS NULL OR company_uuid = $2) AND ($3::int IS NULL OR type_id = $3)
      ORDER BY id`,
    [instanceId, filter.companyUuid ?? null, filter.type ?? null],
  );
  return rows.map(toProperty);
}

/** Adds a property already validated by `additionalPropertyInsertSchema`; 404 unknown company. */
export async function insertAdditionalProperty(tx: Tx, instanceId: string, data: AdditionalPropertyInsert): Promise<AdditionalProperty> {
  await requireCompany(tx, instanceId, data.company.uuid, 'company.uuid');
  const [row] = await tx.query<Row>(
    `INSERT INTO additional_property (instance_id, id, company_uuid, type_id, name, value)
     VALUES ($1, next_ids($1, 'additional_property'), $2, $3, $4, $5)
     RETURNING id, company_uuid, type_id, name, value`,
    [instanceId, data.company.uuid, data.type, data.name.trim(), normalizeAdditionalPropertyValue(data.type, data.value)],
  );
  return toProperty(row!);
}

/** Deletes a property; 404 unknown id. */
export async function removeAdditionalProperty(tx: Tx, instanceId: string, id: number): Promise<void> {
  const rows = await tx.query('DELETE FROM additional_property WHERE instance_id = $1 AND id = $2 RETURNING id', [instanceId, id]);
  if (!rows.length) throw companyError('additional_property_not_found', `additional property ${id} not found`);
}
