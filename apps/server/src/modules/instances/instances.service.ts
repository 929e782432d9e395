/**
 * Instances (workplaces): detail, settings and onboarding (spec §2.9, §3 Instance, §7.1 Onboarding);
 * the profile and the user's instances are identity's (identity/profile.service.ts), asking here.
 */
import { currencyCodeById, Currency, normalizeIban, vatPercentToRate, type CurrencyCode, type InstanceSettings, type RoleName } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { createAddress, createCompany, createPaymentProfile, companyExists, discardCompany, getCompany, type AddressInput } from '../companies/companies.service.js';
import { hasJournalEntries, makeRoomForBankAccount, seedSwissSmeChart, upsertLedgerAccount } from '../accounting/accounting.service.js';
import { instanceError } from './instances.errors.js';

export type Permission = 'read' | 'write' | 'admin';

/** What each role may do (issue #3 adds staff management on top of these). */
export const permissionsOf = (role: RoleName): Permission[] =>
  role === 'owner' || role === 'admin' ? ['read', 'write', 'admin'] : role === 'accountant' ? ['read', 'write'] : ['read'];

export const ONBOARDING_NOT_FINISHED = 'Onboarding not finished';

export interface InstanceDetail {
  uuid: string;
  name: string;
  dateAdded: string;
  /** VAT rate as a fraction, e.g. "0.081" (spec §2.7). */
  vatRate: string | null;
  vatNumber: string | null;
  currency: CurrencyCode;
  address: {
    street: string;
    houseNumber: string | null;
    city: string;
    zip: string;
    country: { id: number };
    company: { uuid: string; name: string };
  } | null;
  user: { uuid: string };
}

/** The instance record of spec §3 "Instance", with the own company's first address. */
export async function instanceDetail(tx: Tx, instanceId: string, userId: string): Promise<InstanceDetail> {
  const [row] = await tx.query<{
    name: string;
    date_added: string;
    vat_rate: string | null;
    vat_number: string | null;
    currency_id: number;
    own_company_uuid: string | null;
  }>(
    `SELECT name, date_added, vat_rate::text AS vat_rate, vat_number, currency_id, own_company_uuid FROM instance WHERE id = $1`,
    [instanceId],
  );
  if (!row) throw instanceError('instance_not_found', 'Instance not found');
  const company = row.own_company_uuid ? await getCompany(tx, instanceId, row.own_company_uuid, row.own_company_uuid) : null;
  return {
    uuid: instanceId,
    name: row.name,
    dateAdded: row.date_added,
    vatRate: row.vat_rate === null ? null : row.vat_rate.replace(/0+$/, '').replace(/\.$/, ''),
    vatNumber: row.vat_number,
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    address:
      company?.address
        ? {
            street: company.address.street,
            houseNumber: company.address.houseNumber,
            city: company.address.city,
            zip: company.address.zip,
            country: { id: company.address.country.id },
            company: { uuid: company.uuid, name: company.name },
          }
        : null,
    user: { uuid: userId },
  };
}

export interface InitInput {
  company: { name: string; uid?: string | null | undefined };
  address: AddressInput;
  extra: { vatPercent: string | null; currency: CurrencyCode };
}

/**
 * POST /api/instance/init: records the instance's own company and address, VAT rate and currency.
 * Refused (409) once onboarding has finished. Repeating it before the accounts step replaces the
 * company, so a user who goes back in the wizard does not leave a trail of companies.
 */
export async function initInstance(tx: Tx, instanceId: string, input: InitInput): Promise<{ companyUuid: string }> {
  const [instance] = await tx.query<{ initialized_at: string | null; own_company_uuid: string | null }>(
    'SELECT initialized_at, own_company_uuid FROM instance WHERE id = $1 FOR UPDATE',
    [instanceId],
  );
  if (!instance) throw instanceError('instance_not_found', 'Instance not found');
  if (instance.initialized_at) throw instanceError('onboarding_finished', 'Onboarding has already been completed');
  if (instance.own_company_uuid) {
    await tx.query('UPDATE instance SET own_company_uuid = NULL WHERE id = $1', [instanceId]);
    await discardCompany(tx, instanceId, instance.own_company_uuid);
  }
  const companyUuid = await createCompany(tx, instanceId, { name: input.company.name, uid: input.company.uid ?? null });
  await createAddress(tx, instanceId, companyUuid, input.address);
  await tx.query('UPDATE instance SET own_company_uuid = $2, vat_rate = $3, vat_number = $4, currency_id = $5 WHERE id = $1', [
    instanceId,
    companyUuid,
    input.extra.vatPercent === null ? null : vatPercentToRate(input.extra.vatPercent),
    input.company.uid?.trim() || null,
    Currency[input.extra.currency],
  ]);
  return { companyUuid };
}

export interface InitAccountsInput {
  companyUuid: string;
  accounts: { ledgerCode: number; name: string; iban: string; bic: string | null; type: number }[];
  currency: CurrencyCode;
}

/**
 * POST /api/instance/init/accounts: loads the Swiss SME chart, adds the bank accounts as ledger
 * accounts (function bankAccount) with a payment profile each, and marks the instance ready.
 * A bank account whose ledger code is one of the chart's bank accounts takes it over (renamed), e.g.
 * 1020 "Bank" replaces "Postfinance oder Bank1"; on 1000 (the spec's proposal) the chart's cash
 * account Kasse moves to the next free number; any other taken number is refused (400).
 */
export async function initAccounts(tx: Tx, instanceId: string, input: InitAccountsInput) {
  const [instance] = await tx.query<{ initialized_at: string | null; own_company_uuid: string | null }>(
    'SELECT initialized_at, own_company_uuid FROM instance WHERE id = $1 FOR UPDATE',
    [instanceId],
  );
  if (!instance) throw instanceError('instance_not_found', 'Instance not found');
  if (instance.initialized_at) throw instanceError('onboarding_finished', 'Onboarding has already been completed');
  if (!instance.own_company_uuid || instance.own_company_uuid !== input.companyUuid || !(await companyExists(tx, instanceId, input.companyUuid))) {
    const message = 'Company not found: complete the company step first';
    throw instanceError('own_company_missing', message, { 'company.uuid': message });
  }
  const codes = new Set<number>();
  input.accounts.forEach((account, index) => {
    const message = 'Each bank account needs its own ledger code';
    if (codes.has(account.ledgerCode)) throw instanceError('ledger_code_repeated', message, { [`accounts.${index}.ledgerCode`]: message });
    codes.add(account.ledgerCode);
  });
  await tx.query('UPDATE instance SET currency_id = $2 WHERE id = $1', [instanceId, Currency[input.currency]]);
  await seedSwissSmeChart(tx, instanceId, input.currency);
  const reserved = new Set([...codes].map(String));
  for (const [index, account] of input.accounts.entries()) {
    await makeRoomForBankAccount(tx, instanceId, String(account.ledgerCode), reserved, `accounts.${index}.ledgerCode`);
  }
  const accounts = [];
  for (const account of input.accounts) {
    const ledgerAccount = await upsertLedgerAccount(tx, instanceId, {
      number: String(account.ledgerCode),
      name: account.name.trim(),
      currency: input.currency,
      type: 1,
      functionType: 1,
    });
    await createPaymentProfile(tx, instanceId, {
      companyUuid: input.companyUuid,
      accountId: ledgerAccount.id,
      typeId: account.type,
      iban: normalizeIban(account.iban),
      bic: account.bic?.trim().toUpperCase() || null,
    });
    accounts.push(ledgerAccount);
  }
  await tx.query('UPDATE instance SET initialized_at = now() WHERE id = $1', [instanceId]);
  return { accounts };
}

/**
 * POST /api/instance/update, General Settings (spec §2.7): name, VAT (percent text 1–99, null or ''
 * clears), VAT number, default currency. 409 currency_fixed when the currency changes once the
 * books have entries (their amounts are in it); 409 instance_name_taken. Answers the detail.
 */
export async function updateInstanceSettings(tx: Tx, instanceId: string, userId: string, data: InstanceSettings): Promise<InstanceDetail> {
  if (data.currency !== undefined) {
    const [current] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
    if (current && current.currency_id !== Currency[data.currency] && (await hasJournalEntries(tx, instanceId))) {
      const message = 'the default currency cannot change once the books have entries';
      throw instanceError('currency_fixed', message, { currency: message });
    }
  }
  const vat = data.vat === undefined ? undefined : data.vat === null || data.vat.trim() === '' ? null : vatPercentToRate(data.vat.trim());
  try {
    await tx.query(
      `UPDATE instance SET name = coalesce($2, name),
              vat_rate = CASE WHEN $3 THEN $4::numeric ELSE vat_rate END,
              vat_number = CASE WHEN $5 THEN $6 ELSE vat_number END,
              currency_id = coalesce($7, currency_id)
        WHERE id = $1`,
      [
        instanceId,
        data.name?.trim() ?? null,
        vat !== undefined,
        vat ?? null,
        data.vatNumber !== undefined,
        data.vatNumber?.trim() || null,
        data.currency === undefined ? null : Currency[data.currency],
      ],
    );
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw instanceError('instance_name_taken', 'Instance name already taken', { name: 'Instance name already taken' });
    throw error;
  }
  return instanceDetail(tx, instanceId, userId);
}

/** Names of the given instances by id (platform pages list records of every instance). */
export async function instanceNames(tx: Tx, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; name: string }>('SELECT id, name FROM instance WHERE id = ANY ($1::uuid[])', [[...new Set(ids)]]);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** How many instances (workplaces) the platform has. */
export async function countInstances(tx: Tx): Promise<number> {
  const [row] = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM instance');
  return row!.count;
}

/** Looks an instance up by name, case-insensitively (names are unique regardless of case, migration 0001). */
export async function findInstanceByName(tx: Tx, name: string): Promise<{ uuid: string; name: string } | undefined> {
  const [row] = await tx.query<{ id: string; name: string }>('SELECT id, name FROM instance WHERE lower(name) = lower($1)', [name.trim()]);
  return row ? { uuid: row.id, name: row.name } : undefined;
}

/** Whether an instance with this id exists. */
export async function instanceExists(tx: Tx, instanceId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM instance WHERE id = $1', [instanceId]);
  return rows.length > 0;
}

/**
 * Creates an instance named `name` (trimmed). Sign-up creates it bare (onboarding follows); the CLI
 * gives the currency and marks it ready. The database refuses a taken name (23505) or a bad one (23514).
 */
export async function createInstance(tx: Tx, input: { name: string; currency?: CurrencyCode; initialized?: boolean }): Promise<{ uuid: string; name: string }> {
  // Without a currency the column's default (CHF) applies; onboarding sets the real one.
  const [row] = await tx.query<{ id: string; name: string }>(
    input.currency === undefined
      ? 'INSERT INTO instance (name, initialized_at) VALUES ($1, CASE WHEN $2 THEN now() END) RETURNING id, name'
      : 'INSERT INTO instance (name, initialized_at, currency_id) VALUES ($1, CASE WHEN $2 THEN now() END, $3) RETURNING id, name',
    [input.name.trim(), input.initialized ?? false, ...(input.currency === undefined ? [] : [Currency[input.currency]])],
  );
  return { uuid: row!.id, name: row!.name };
}

/**
 * The workplace's own company (set by onboarding, `initInstance`), null before: the default owner
 * of payment profiles and the company that cannot be deleted. Asked by the modules above instances
 * and, through wiring, by companies.
 */
export async function ownCompanyUuid(tx: Tx, instanceId: string): Promise<string | null> {
  const [row] = await tx.query<{ own_company_uuid: string | null }>('SELECT own_company_uuid FROM instance WHERE id = $1', [instanceId]);
  return row?.own_company_uuid ?? null;
}

/**
 * Name, books' currency and onboarding state of an instance, undefined when it is not visible
 * (for the profile, identity/profile.service.ts).
 */
export async function instanceSummary(tx: Tx, instanceId: string): Promise<{ name: string; currency: CurrencyCode; initialized: boolean } | undefined> {
  const [row] = await tx.query<{ name: string; currency_id: number; initialized: boolean }>(
    'SELECT name, currency_id, initialized_at IS NOT NULL AS initialized FROM instance WHERE id = $1',
    [instanceId],
  );
  return row && { name: row.name, currency: currencyCodeById(row.currency_id) ?? 'CHF', initialized: row.initialized };
}

/** The given instances as `{ uuid, name }`, sorted by name (spec §2.6 "CHANGE INSTANCE … sorted by name"). */
export async function instancesByName(tx: Tx, ids: readonly string[]): Promise<{ uuid: string; name: string }[]> {
  if (ids.length === 0) return [];
  return tx.query<{ uuid: string; name: string }>('SELECT id AS uuid, name FROM instance WHERE id = ANY ($1::uuid[]) ORDER BY lower(name), id', [[...new Set(ids)]]);
}

export { instanceError } from './instances.errors.js';

// What other modules' documents take from the instance (issue 11 §3).
export { instanceDefaults, type InstanceDefaults } from './instance-defaults.js';
export { instanceLetterhead, saveLetterhead, contactLines, LOGO_MAX_BYTES, type Letterhead, type LetterheadInput } from './letterhead.js';
