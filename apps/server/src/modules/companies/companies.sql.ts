/**
 * Data access for companies, addresses, payment profiles and additional properties. Every query
 * names `instance_id` explicitly (row-level security hides other instances anyway; the explicit
 * filter lets the indexes serve).
 */
import { containsPattern } from '../../db/like.js';
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type KeyPart, type PageRequest } from '../../db/paging.js';

/** Address as answered by the API (docs/api.md "Address"): structured, so a QR-bill type S can be filled. */
export interface Address {
  id: number;
  company: { uuid: string };
  street: string;
  houseNumber: string | null;
  zip: string;
  city: string;
  country: { id: number };
}

/** Company as answered by the API (docs/api.md "Company"); `address` is its first address. */
export interface Company {
  uuid: string;
  name: string;
  uid: string | null;
  address: Omit<Address, 'company'> | null;
  addressCount: number;
  isOwn: boolean;
  dateAdded: string;
}

type AddressRow = {
  id: number;
  company_uuid: string;
  street: string;
  house_number: string | null;
  zip: string;
  city: string;
  country_id: number;
};

export const toAddress = (row: AddressRow): Address => ({
  id: row.id,
  company: { uuid: row.company_uuid },
  street: row.street,
  houseNumber: row.house_number,
  zip: row.zip,
  city: row.city,
  country: { id: row.country_id },
});

export type CompanySortField = 'name' | 'uid' | 'city' | 'dateAdded';
export interface CompanyQuery {
  uuids?: readonly string[];
  text?: string;
  sort?: { by: CompanySortField; order: 'asc' | 'desc' };
  /** A page by number or after a cursor (db/paging.ts); without it, every matching company. */
  page?: PageRequest;
  /** The workplace's own company (the instances module's to say): the one answered with `isOwn`. */
  ownCompanyUuid?: string | null;
}

/** The sort key of a company order: its SQL columns (all in the order's direction), their casts and the cursor's part types. */
interface CompanySortKey {
  columns: string[];
  types: string[];
  parts: KeyPart[];
}

/**
 * The whole key of each order, unique by its last column (the uuid), every column in the same
 * direction so that the key is one row comparison (`afterKey`). A field that may be empty (UID,
 * the city of the first address) is preceded by a rank that puts the empty ones last in both
 * directions, and compared as '' after it (a row comparison with a NULL is never true). The name
 * sort (name_key: the stored lower-cased name) and the date sort are each one index range
 * (migration 0049: under row-level security lower(name) could not be an index condition).
 */
function companySortKey(by: CompanySortField, order: 'asc' | 'desc'): CompanySortKey {
  const lastEmpty = (column: string) => `(CASE WHEN ${column} IS NULL THEN ${order === 'desc' ? 0 : 1} ELSE ${order === 'desc' ? 1 : 0} END)`;
  const byName = { columns: ['c.name_key', 'c.uuid'], types: ['text', 'uuid'], parts: ['text', 'uuid'] as KeyPart[] };
  switch (by) {
    case 'name':
      return byName;
    case 'uid':
      return { columns: [lastEmpty('c.uid'), "coalesce(c.uid, '')", ...byName.columns], types: ['int', 'text', ...byName.types], parts: ['int', 'text', ...byName.parts] };
    case 'city':
      return {
        columns: [lastEmpty('a.city'), "coalesce(lower(a.city), '')", ...byName.columns],
        types: ['int', 'text', ...byName.types],
        parts: ['int', 'text', ...byName.parts],
      };
    case 'dateAdded':
      return { columns: ['c.created_at', 'c.uuid'], types: ['timestamptz', 'uuid'], parts: ['timestamp', 'uuid'] };
  }
}

/** A key column as the cursor carries it: the time of `created_at` as text to the microsecond (UTC), since a Date keeps milliseconds only. */
const keyValueSql = (column: string) => (column === 'c.created_at' ? `to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : column);

/** LIKE pattern matching `text` literally anywhere (wildcards escaped). */
export { containsPattern };

/**
 * Companies with their first address, filtered, sorted (ties by name, then uuid) and paged by
 * number or by cursor (decision 036); plus the total, counted up to COUNT_CAP (carried by the
 * cursor on a walk's later pages). The page is chosen first and only its rows get their address
 * count and address (issue 18 §2): the cost of a page does not grow with the instance's companies.
 * @throws 400 on `cursor` for a cursor that is not one of this order's.
 */
export async function selectCompanies(
  tx: Tx,
  instanceId: string,
  query: CompanyQuery = {},
): Promise<{ data: Company[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId];
  const where = ['c.instance_id = $1'];
  if (query.uuids) {
    params.push(query.uuids);
    where.push(`c.uuid = ANY($${params.length}::uuid[])`);
  }
  if (query.text?.trim()) {
    params.push(containsPattern(query.text.trim().toLowerCase()));
    const p = `$${params.length}`;
    where.push(`(lower(c.name) LIKE ${p} OR lower(coalesce(c.uid, '')) LIKE ${p} OR lower(coalesce(a.city, '')) LIKE ${p})`);
  }
  const sort = query.sort ?? { by: 'name', order: 'asc' };
  const direction = sort.order === 'desc' ? 'DESC' : 'ASC';
  const key = companySortKey(sort.by, sort.order);
  const firstAddress = 'LEFT JOIN LATERAL (SELECT * FROM address WHERE instance_id = c.instance_id AND company_uuid = c.uuid ORDER BY id LIMIT 1) a ON true';
  // The first address takes part in choosing the page only when the filter or the order reads its city.
  const chooseFrom = `company c ${sort.by === 'city' || query.text?.trim() ? firstAddress : ''} WHERE ${where.join(' AND ')}`;
  const order = key.columns.map((column) => `${column} ${direction}`).join(', ');
  const page = query.page;
  // Asked by uuid, the rows are the count.
  const counted = query.uuids ? { total: 0, totalCapped: false } : await countUpTo(tx, `SELECT 1 FROM ${chooseFrom}`, params, page);
  const after = page?.cursor ? ` AND ${afterKey(key.columns, key.types, sort.order, decodeCursor(page.cursor, key.parts), params)}` : '';
  const keyColumns = key.columns.map((column, i) => `${keyValueSql(column)} AS k${i}`).join(', ');
  const rows = await tx.query<{
    uuid: string;
    name: string;
    uid: string | null;
    created_at: Date | string;
    address_count: number;
    address_id: number | null;
    street: string | null;
    house_number: string | null;
    zip: string | null;
    city: string | null;
    country_id: number | null;
    [k: `k${number}`]: string | number;
  }>(
    `SELECT c.*,
            (SELECT count(*)::int FROM address x WHERE x.instance_id = c.instance_id AND x.company_uuid = c.uuid) AS address_count,
            a.id AS address_id, a.street, a.house_number, a.zip, a.city, a.country_id
       FROM (SELECT c.instance_id, c.uuid, c.name, c.name_key, c.uid, c.created_at, ${keyColumns} FROM ${chooseFrom}${after}
              ORDER BY ${order} ${page ? limitOffset(page) : ''}) c
       ${firstAddress}
      ORDER BY ${order}`,
    params,
  );
  const paged = page ? pageOf(rows, page, (row) => key.columns.map((_, i) => row[`k${i}`]!), counted) : { rows, nextCursor: null };
  const data = paged.rows.map((row) => ({
    uuid: row.uuid,
    name: row.name,
    uid: row.uid,
    isOwn: row.uuid === (query.ownCompanyUuid ?? null),
    addressCount: row.address_count,
    dateAdded: new Date(row.created_at).toISOString(),
    address:
      row.address_id === null
        ? null
        : {
            id: row.address_id,
            street: row.street!,
            houseNumber: row.house_number,
            zip: row.zip!,
            city: row.city!,
            country: { id: row.country_id! },
          },
  }));
  return query.uuids ? { data, total: data.length, totalCapped: false, nextCursor: null } : { data, ...counted, nextCursor: paged.nextCursor };
}

/**
 * SQL of the uuids of the instance's (`$1`) companies whose lower-cased name is LIKE `pattern` (a
 * placeholder of a lower-case `%word%`), through the published view (`company_head.name_key`,
 * migration 0051): the names branch of the invoices' and bills' text filters (decision 033).
 */
export const companiesNamedLike = (pattern: string): string =>
  `SELECT c.uuid FROM company_head c WHERE c.instance_id = $1 AND c.name_key LIKE ${pattern}`;

export async function insertCompany(tx: Tx, instanceId: string, input: { name: string; uid: string | null; registerId?: number | null }): Promise<string> {
  const [row] = await tx.query<{ uuid: string }>(
    'INSERT INTO company (instance_id, name, uid, register_id) VALUES ($1, $2, $3, $4) RETURNING uuid',
    [instanceId, input.name, input.uid, input.registerId ?? null],
  );
  return row!.uuid;
}

export async function updateCompany(tx: Tx, instanceId: string, uuid: string, patch: { name?: string; uid?: string | null }): Promise<void> {
  await tx.query(
    `UPDATE company SET name = coalesce($3, name), uid = CASE WHEN $4 THEN $5 ELSE uid END, updated_at = now()
      WHERE instance_id = $1 AND uuid = $2`,
    [instanceId, uuid, patch.name ?? null, patch.uid !== undefined, patch.uid ?? null],
  );
}

/** Documents that keep a company: its invoices, its bills (payables) and the postings of both. */
export interface CompanyDocumentCounts {
  invoices: number;
  bills: number;
  /** Journal entries whose source document is one of the company's invoices or bills. */
  postings: number;
}

/**
 * Counts what keeps a company (issue #4 §1 delete rule), asked of the modules that own those
 * documents (a port: they sit above companies; wiring/wiring.ts builds it).
 */
export type CompanyDocumentCountsPort = (tx: Tx, instanceId: string, companyUuid: string) => Promise<CompanyDocumentCounts>;

export async function deleteCompany(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await tx.query('DELETE FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid]);
}

export async function selectAddresses(tx: Tx, instanceId: string, filter: { companyUuid?: string; ids?: readonly number[] }): Promise<Address[]> {
  return (await selectAddressRows(tx, instanceId, filter)).map(toAddress);
}

/**
 * One page of addresses by company and id (db/paging.ts): by `page` or after `cursor`, counted up
 * to COUNT_CAP.
 */
export async function selectAddressPage(
  tx: Tx,
  instanceId: string,
  filter: { companyUuid?: string },
  page: PageRequest,
): Promise<{ data: Address[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, filter.companyUuid ?? null];
  const where = 'instance_id = $1 AND ($2::uuid IS NULL OR company_uuid = $2)';
  const counted = await countUpTo(tx, `SELECT 1 FROM address WHERE ${where}`, params, page);
  const after = page.cursor ? ` AND ${afterKey(['company_uuid', 'id'], ['uuid', 'int'], 'asc', decodeCursor(page.cursor, ['uuid', 'int']), params)}` : '';
  const rows = await tx.query<AddressRow>(
    `SELECT id, company_uuid, street, house_number, zip, city, country_id FROM address WHERE ${where}${after} ORDER BY company_uuid, id ${limitOffset(page)}`,
    params,
  );
  const paged = pageOf(rows, page, (row) => [row.company_uuid, row.id], counted);
  return { data: paged.rows.map(toAddress), ...counted, nextCursor: paged.nextCursor };
}

async function selectAddressRows(tx: Tx, instanceId: string, filter: { companyUuid?: string; ids?: readonly number[] }): Promise<AddressRow[]> {
  const params: unknown[] = [instanceId];
  const where = ['instance_id = $1'];
  if (filter.companyUuid) {
    params.push(filter.companyUuid);
    where.push(`company_uuid = $${params.length}`);
  }
  if (filter.ids) {
    params.push(filter.ids);
    where.push(`id = ANY($${params.length}::int[])`);
  }
  const rows = await tx.query<AddressRow>(
    `SELECT id, company_uuid, street, house_number, zip, city, country_id FROM address WHERE ${where.join(' AND ')} ORDER BY company_uuid, id`,
    params,
  );
  return rows;
}

export async function updateAddress(
  tx: Tx,
  instanceId: string,
  id: number,
  input: { street: string; houseNumber: string | null; zip: string; city: string; countryId: number },
): Promise<void> {
  await tx.query(
    `UPDATE address SET street = $3, house_number = $4, zip = $5, city = $6, country_id = $7 WHERE instance_id = $1 AND id = $2`,
    [instanceId, id, input.street, input.houseNumber, input.zip, input.city, input.countryId],
  );
}

export async function deleteAddress(tx: Tx, instanceId: string, id: number): Promise<void> {
  await tx.query('DELETE FROM address WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}
