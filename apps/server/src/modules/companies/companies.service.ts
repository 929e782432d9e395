/**
 * Companies, their addresses, payment profiles and additional properties (spec §3, §5, §7.1).
 * Functions take the caller's transaction (`db.withInstance`) so other modules (onboarding,
 * invoices) can use them inside their own; each API call is one transaction.
 */
import {
  Country,
  companyAddressSchema,
  companyInsertSchema,
  fieldErrors,
  formatSwissUid,
  isIbanPaymentProfileType,
  normalizeIban,
  qrBillFieldMessage,
  type CompanyAddress,
  type CompanyInsert,
  type CompanyUpdate,
  type CountryId,
  type QrBillField,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { DEFAULT_PAGE_SIZE, type PageRequest } from '../../db/paging.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { companyError } from './companies.errors.js';
import { parseCsv, RowErrors } from '../../lib/csv.js';
import {
  deleteAddress,
  deleteCompany,
  insertCompany,
  selectAddressPage,
  selectAddresses,
  selectCompanies,
  type CompanyDocumentCountsPort,
  updateAddress,
  updateCompany,
  type Address,
  type Company,
  type CompanyQuery,
} from './companies.sql.js';
import {
  archivePaymentProfile,
  deletePaymentProfile,
  selectPaymentProfilePage,
  selectPaymentProfiles,
  type PaymentProfile,
  type PaymentProfileFilter,
} from './payment-profile.sql.js';

export type { Address, Company, CompanyDocumentCounts, CompanyDocumentCountsPort } from './companies.sql.js';
export type { PaymentProfile } from './payment-profile.sql.js';

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

/** UID in its official form 'CHE-123.456.789' (eCH-0097); '' and null mean none. */
const canonicalUid = (uid: string | null | undefined): string | null => (uid?.trim() ? formatSwissUid(uid.trim()) : null);

/** Trimmed NFC text, as the QR-bill carries it (see `qrBillFieldMessage`). */
const qrText = (value: string): string => value.trim().normalize('NFC');

/**
 * Last guard of every company and address write, for callers that do not come through the domain
 * schemas (onboarding, supplier import): the fields must fit a Swiss QR-bill (SIX IG v2.3 §4.3.2,
 * SPS 2025 character set). 400 naming each field that does not.
 */
function requireQrBillFields(values: Partial<Record<QrBillField, string | null | undefined>>): void {
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(values) as [QrBillField, string | null | undefined][]) {
    const message = value ? qrBillFieldMessage(field, qrText(value)) : undefined;
    if (message) fields[field] = message;
  }
  const first = Object.values(fields)[0];
  if (first) throw companyError('qr_bill_text', first, fields);
}

/** Creates a company; returns its uuid. 400 on `name` when it does not fit a QR-bill. */
export async function createCompany(tx: Tx, instanceId: string, input: CompanyInput & { registerId?: number | null }): Promise<string> {
  requireQrBillFields({ name: input.name });
  return insertCompany(tx, instanceId, { name: qrText(input.name), uid: canonicalUid(input.uid), registerId: input.registerId });
}

/** Adds an address to a company; returns its per-instance id. 400 on a field that does not fit a QR-bill. */
export async function createAddress(tx: Tx, instanceId: string, companyUuid: string, input: AddressInput): Promise<number> {
  requireQrBillFields({ street: input.street, houseNumber: input.houseNumber, zip: input.zip, city: input.city });
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO address (instance_id, id, company_uuid, street, house_number, zip, city, country_id)
     VALUES ($1, next_ids($1, 'address'), $2, $3, $4, $5, $6, $7) RETURNING id`,
    [instanceId, companyUuid, qrText(input.street), input.houseNumber ? qrText(input.houseNumber) || null : null, qrText(input.zip), qrText(input.city), input.countryId],
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

const companyNotFound = (uuid: string) => companyError('company_not_found', `company ${uuid} not found`);

/** 404 (field `field` when given) unless the company is one of the instance's. */
export async function requireCompany(tx: Tx, instanceId: string, uuid: string, field?: string): Promise<void> {
  if (await companyExists(tx, instanceId, uuid)) return;
  const message = `company ${uuid} not found`;
  throw companyError('company_not_found', message, field ? { [field]: message } : undefined);
}

// ------------------------------------------------------------------------------------------------
// Companies
// ------------------------------------------------------------------------------------------------

/**
 * Companies, filtered by text (name, UID or city), sorted and paged by `page` (1-based) or after
 * `cursor` (the previous answer's `nextCursor`, decision 036); `isOwn` for `ownCompanyUuid` (the
 * instances module's own company, asked by the caller). 400 on `cursor` for one of another list or order.
 */
export async function listCompanies(
  tx: Tx,
  instanceId: string,
  query: { text?: string; sort?: CompanyQuery['sort']; page?: number; pageSize?: number; cursor?: string },
  ownCompanyUuid: string | null,
): Promise<{ data: Company[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  return selectCompanies(tx, instanceId, {
    ownCompanyUuid,
    text: query.text,
    sort: query.sort,
    page: { pageSize: query.pageSize ?? DEFAULT_PAGE_SIZE, page: query.page, cursor: query.cursor },
  });
}

/** One company, `isOwn` when it is `ownCompanyUuid`; 404 for an unknown uuid or one of another instance. */
export async function getCompany(tx: Tx, instanceId: string, uuid: string, ownCompanyUuid: string | null): Promise<Company> {
  const { data } = await selectCompanies(tx, instanceId, { uuids: [uuid], ownCompanyUuid });
  if (!data[0]) throw companyNotFound(uuid);
  return data[0];
}

const addressInput = (address: CompanyAddress): AddressInput => ({
  street: address.street,
  houseNumber: address.houseNumber ?? null,
  zip: address.zip,
  city: address.city,
  countryId: address.country.id,
});

/**
 * Creates a company with its optional first address (one transaction). It is never the own company
 * (onboarding names that one: instances initInstance).
 */
export async function insertCompanyWithAddress(tx: Tx, instanceId: string, input: CompanyInsert & { registerId?: number | null }): Promise<Company> {
  const uuid = await createCompany(tx, instanceId, input);
  if (input.address) await createAddress(tx, instanceId, uuid, addressInput(input.address));
  return getCompany(tx, instanceId, uuid, null);
}

/**
 * Changes name and/or UID (`uid: null` or '' clears it); 404 unknown uuid. Only a given name is
 * checked against the QR-bill rules, so a company stored before them can still change its UID.
 */
export async function changeCompany(tx: Tx, instanceId: string, uuid: string, patch: CompanyUpdate, ownCompanyUuid: string | null): Promise<Company> {
  await getCompany(tx, instanceId, uuid, ownCompanyUuid);
  if (patch.name !== undefined) requireQrBillFields({ name: patch.name });
  await updateCompany(tx, instanceId, uuid, {
    name: patch.name === undefined ? undefined : qrText(patch.name),
    uid: patch.uid === undefined ? undefined : canonicalUid(patch.uid),
  });
  return getCompany(tx, instanceId, uuid, ownCompanyUuid);
}

/** "1 invoice", "2 bills"; empty for none. */
const counted = (n: number, one: string, many: string): string[] => (n > 0 ? [`${n} ${n === 1 ? one : many}`] : []);

/** "a", "a and b", "a, b and c". */
const listed = (parts: readonly string[]): string => (parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`);

/**
 * Deletes a company with its addresses, payment profiles and additional properties. 404 unknown;
 * 409 for the workplace's own company, and while documents keep it (spec §7.1 /company/delete,
 * issue #4 §1: invoices, bills or postings), naming them: 'Acme AG has 2 invoices, 1 bill and 3
 * postings; it cannot be deleted'. `documentCounts` counts them (the document modules' port);
 * `ownCompanyUuid` is the workplace's own company (the instances module's).
 */
export async function removeCompany(
  tx: Tx,
  instanceId: string,
  uuid: string,
  documentCounts: CompanyDocumentCountsPort,
  ownCompanyUuid: string | null,
): Promise<void> {
  const company = await getCompany(tx, instanceId, uuid, ownCompanyUuid);
  if (company.isOwn) throw companyError('own_company', `${company.name} is the workplace's own company and cannot be deleted`);
  const counts = await documentCounts(tx, instanceId, uuid);
  const blockers = [...counted(counts.invoices, 'invoice', 'invoices'), ...counted(counts.bills, 'bill', 'bills'), ...counted(counts.postings, 'posting', 'postings')];
  if (blockers.length) throw companyError('company_has_documents', `${company.name} has ${listed(blockers)}; it cannot be deleted`);
  await deleteCompany(tx, instanceId, uuid);
}

/**
 * Deletes a company with its addresses, payment profiles and properties without the document
 * checks of `removeCompany`: for onboarding, which replaces its own company before any document or
 * posting can name it (instances.service initInstance).
 */
export async function discardCompany(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await deleteCompany(tx, instanceId, uuid);
}

const IMPORT_COLUMNS = ['name', 'uid', 'street', 'housenumber', 'zip', 'city', 'country'] as const;

/** Country of an import cell: id ('1'), ISO code ('CH') or English name ('Switzerland'). */
function countryFromCell(cell: string): CountryId | undefined {
  const text = cell.trim();
  if (/^\d+$/.test(text)) return (Object.values(Country) as number[]).includes(Number(text)) ? (Number(text) as CountryId) : undefined;
  const upper = text.toUpperCase();
  const iso: Record<string, CountryId> = { CH: 1, US: 2, GB: 3, UK: 3, AE: 4, FR: 5, DE: 6, CA: 7, AU: 8, JP: 9, IT: 10, ES: 11, BR: 12, IN: 13, CN: 14 };
  if (iso[upper]) return iso[upper];
  const byName = Object.entries(Country).find(([name]) => name.toUpperCase() === upper);
  return byName?.[1];
}

/**
 * `/company/import`: CSV with header `name,uid,street,houseNumber,zip,city,country` (only `name`
 * required; an address needs street, zip, city and country). All or nothing: any bad row → 400
 * with `fields["line N.column"]` for each error and nothing written.
 */
export async function importCompanies(tx: Tx, instanceId: string, csv: string): Promise<{ created: number; data: Company[] }> {
  const { records } = parseCsv(csv, { required: ['name'], allowed: IMPORT_COLUMNS });
  const errors = new RowErrors();
  const rows: CompanyInsert[] = [];
  for (const { line, values } of records) {
    const hasAddress = ['street', 'housenumber', 'zip', 'city', 'country'].some((c) => values[c]);
    const country = values.country ? countryFromCell(values.country) : undefined;
    const candidate = {
      name: values.name ?? '',
      uid: values.uid || null,
      address: hasAddress
        ? {
            street: values.street ?? '',
            houseNumber: values.housenumber || null,
            zip: values.zip ?? '',
            city: values.city ?? '',
            country: country ? { id: country } : values.country ? { id: 0 } : undefined,
          }
        : null,
    };
    const parsed = companyInsertSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const [path, message] of Object.entries(fieldErrors(parsed.error))) {
        const column = path.startsWith('address.') ? path.split('.')[1]! : path;
        errors.add(line, column === 'houseNumber' ? 'housenumber' : column, column === 'country' && values.country ? `country "${values.country}" unknown` : message);
      }
      continue;
    }
    rows.push(parsed.data);
  }
  if (errors.count) throw errors.toError();
  const uuids: string[] = [];
  for (const row of rows) {
    const uuid = await createCompany(tx, instanceId, row);
    if (row.address) await createAddress(tx, instanceId, uuid, addressInput(row.address));
    uuids.push(uuid);
  }
  const { data } = await selectCompanies(tx, instanceId, { uuids });
  return { created: uuids.length, data };
}

// ------------------------------------------------------------------------------------------------
// Addresses
// ------------------------------------------------------------------------------------------------

const addressNotFound = (id: number) => companyError('address_not_found', `address ${id} not found`);

/** Addresses of the instance, or of one company (404 for an unknown company). */
export async function listAddresses(tx: Tx, instanceId: string, companyUuid?: string): Promise<Address[]> {
  if (companyUuid) await requireCompany(tx, instanceId, companyUuid, 'filters.company.uuid');
  return selectAddresses(tx, instanceId, { companyUuid });
}

/** A page of the addresses of one company (404 unknown company) or of every company, by company and id. */
export async function listAddressPage(tx: Tx, instanceId: string, companyUuid: string | undefined, page: PageRequest) {
  if (companyUuid) await requireCompany(tx, instanceId, companyUuid, 'filters.company.uuid');
  return selectAddressPage(tx, instanceId, { companyUuid }, page);
}

export async function getAddress(tx: Tx, instanceId: string, id: number): Promise<Address> {
  const [address] = await selectAddresses(tx, instanceId, { ids: [id] });
  if (!address) throw addressNotFound(id);
  return address;
}

/** Adds an address to the company named in `data.company.uuid`; 404 unknown company. */
export async function insertAddress(tx: Tx, instanceId: string, data: CompanyAddress & { company: { uuid: string } }): Promise<Address> {
  await requireCompany(tx, instanceId, data.company.uuid, 'company.uuid');
  const id = await createAddress(tx, instanceId, data.company.uuid, addressInput(data));
  return getAddress(tx, instanceId, id);
}

/** Replaces the fields of an address (its company stays); 404 unknown id. */
export async function changeAddress(tx: Tx, instanceId: string, id: number, data: CompanyAddress): Promise<Address> {
  await getAddress(tx, instanceId, id);
  const input = addressInput(companyAddressSchema.parse(data));
  requireQrBillFields({ street: input.street, houseNumber: input.houseNumber, zip: input.zip, city: input.city });
  await updateAddress(tx, instanceId, id, { ...input, houseNumber: input.houseNumber || null });
  return getAddress(tx, instanceId, id);
}

/** Deletes an address; 404 unknown id, 409 while documents (invoices) refer to it. */
export async function removeAddress(tx: Tx, instanceId: string, id: number): Promise<void> {
  await getAddress(tx, instanceId, id);
  try {
    await deleteAddress(tx, instanceId, id);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') throw companyError('address_in_use', `address ${id} is used by documents and cannot be deleted`);
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------
// Payment profiles
// ------------------------------------------------------------------------------------------------

const profileNotFound = (id: number) => companyError('payment_profile_not_found', `payment profile ${id} not found`);

/** Payment profiles (archived hidden unless asked); 404 for an unknown company filter. */
export async function listPaymentProfiles(tx: Tx, instanceId: string, filter: PaymentProfileFilter): Promise<PaymentProfile[]> {
  if (filter.companyUuid) await requireCompany(tx, instanceId, filter.companyUuid, 'filters.company.uuid');
  return selectPaymentProfiles(tx, instanceId, filter);
}

/**
 * A page of the payment profiles of `filter`, by id (decision 036; `{ data, total, totalCapped,
 * nextCursor }`). 404 on `filters.company.uuid` for an unknown company, 400 on `cursor` for a
 * cursor that is not one of this list's.
 */
export async function listPaymentProfilePage(tx: Tx, instanceId: string, filter: PaymentProfileFilter, page: PageRequest) {
  if (filter.companyUuid) await requireCompany(tx, instanceId, filter.companyUuid, 'filters.company.uuid');
  return selectPaymentProfilePage(tx, instanceId, filter, page);
}

export async function getPaymentProfile(tx: Tx, instanceId: string, id: number): Promise<PaymentProfile> {
  const [profile] = await selectPaymentProfiles(tx, instanceId, { ids: [id] });
  if (!profile) throw profileNotFound(id);
  return profile;
}

/**
 * Creates a payment profile from a form already checked by `paymentProfileFormSchema` (spec §5).
 * The company must be given (the routes default it to the workplace's own, asked of the instances
 * module: 400 `company.uuid` before onboarding); the account must be one of the instance's ledger
 * accounts (404 on `account.id`). IBANs are stored without spaces in upper case; the BIC only for
 * IBAN kinds; ledger addresses trimmed.
 */
export async function insertPaymentProfile(
  tx: Tx,
  instanceId: string,
  data: { company?: { uuid: string } | null; account: { id: number }; type: number; iban?: string | null; bic?: string | null },
): Promise<PaymentProfile> {
  const companyUuid = data.company?.uuid;
  if (!companyUuid) throw companyError('company_required', 'company must be given', { 'company.uuid': 'This field must be given' });
  await requireCompany(tx, instanceId, companyUuid, 'company.uuid');
  const [account] = await listLedgerAccounts(tx, instanceId, { ids: [data.account.id] });
  if (!account) {
    const message = `ledger account ${data.account.id} not found`;
    throw companyError('ledger_account_not_found', message, { 'account.id': message });
  }
  const ibanKind = isIbanPaymentProfileType(data.type);
  const raw = data.iban?.trim() || null;
  const id = await createPaymentProfile(tx, instanceId, {
    companyUuid,
    accountId: data.account.id,
    typeId: data.type,
    iban: raw && ibanKind ? normalizeIban(raw) : raw,
    bic: ibanKind && data.bic?.trim() ? data.bic.trim().toUpperCase() : null,
  });
  return getPaymentProfile(tx, instanceId, id);
}

/** Archives a profile (logIsLog): kept for the documents that use it, hidden in lists. Idempotent. */
export async function archiveProfile(tx: Tx, instanceId: string, id: number): Promise<PaymentProfile> {
  await getPaymentProfile(tx, instanceId, id);
  await archivePaymentProfile(tx, instanceId, id);
  return getPaymentProfile(tx, instanceId, id);
}

/** Deletes a profile; 404 unknown id, 409 while documents use it (archive it instead). */
export async function removePaymentProfile(tx: Tx, instanceId: string, id: number): Promise<void> {
  await getPaymentProfile(tx, instanceId, id);
  try {
    await deletePaymentProfile(tx, instanceId, id);
  } catch (error) {
    if ((error as { code?: string }).code === '23503') {
      throw companyError('payment_profile_in_use', `payment profile ${id} is used by documents and cannot be deleted; archive it instead`);
    }
    throw error;
  }
}

// The names branch of other modules' list text filters (decision 033).
export { companiesNamedLike } from './companies.sql.js';

// Batch lookups for other modules' lists and bank files (company-batch.ts).
export { paymentProfileIbansById, ledgerAccountOfIban, ibansOfLedgerAccount } from './company-batch.js';

// Batch look-ups for other modules' lists and matching (issue 11 §3).
export {
  activeProfilesOf,
  addressesById,
  companiesByAge,
  companyByUidOrName,
  companyHeadsByUuid,
  companyNames,
  findCompanyUuids,
  firstAddresses,
  paymentProfileHeads,
  profileByIban,
  type CompanyHead,
  type PaymentProfileHead,
} from './company-lookups.js';
