/** Data access for payment profiles (spec §3 "Payment profile"). */
import { explorerLink, normalizeIban } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';

/** Payment profile as answered by the API (docs/api.md "PaymentProfile"). */
export interface PaymentProfile {
  id: number;
  company: { uuid: string; name: string };
  account: { id: number; number: string; name: string } | null;
  /** PaymentProfileType id (spec §3). */
  type: number;
  /** IBAN / QR-IBAN (no spaces) or a public-ledger address. */
  iban: string | null;
  /** Only for IBAN kinds. */
  bic: string | null;
  bankingReferenceNumber: string | null;
  /** Archived: kept for history, hidden in lists (spec §2.7). */
  logIsLog: boolean;
  /** True while it can still be archived (not archived yet). */
  archivable: boolean;
  /** Block-explorer page for public-ledger kinds, else null. */
  explorerLink: string | null;
}

export interface PaymentProfileFilter {
  ids?: readonly number[];
  companyUuid?: string | undefined;
  accountId?: number | undefined;
  type?: number | undefined;
  /** An IBAN or QR-IBAN (spaces and case ignored) or a ledger address, as stored. */
  iban?: string | undefined;
  includeArchived?: boolean | undefined;
}

type Row = {
  id: number;
  company_uuid: string;
  company_name: string;
  account_id: number | null;
  type_id: number;
  iban: string | null;
  bic: string | null;
  banking_reference_number: string | null;
  log_is_log: boolean;
};

type AccountHead = { id: number; number: string; name: string };

const toPaymentProfile = (row: Row, accounts: ReadonlyMap<number, AccountHead>): PaymentProfile => ({
  id: row.id,
  company: { uuid: row.company_uuid, name: row.company_name },
  account: row.account_id === null ? null : (accounts.get(row.account_id) ?? null),
  type: row.type_id,
  iban: row.iban,
  bic: row.bic,
  bankingReferenceNumber: row.banking_reference_number,
  logIsLog: row.log_is_log,
  archivable: !row.log_is_log,
  explorerLink: (row.iban && explorerLink(row.type_id, row.iban)) ?? null,
});

/** The WHERE conditions of `filter` on `payment_profile p`, its values appended to `params` (whose $1 is the instance). */
function profileWhere(filter: PaymentProfileFilter, params: unknown[]): string {
  const where = ['p.instance_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.ids) add((p) => `p.id = ANY(${p}::int[])`, filter.ids);
  if (filter.companyUuid) add((p) => `p.company_uuid = ${p}`, filter.companyUuid);
  if (filter.accountId !== undefined) add((p) => `p.account_id = ${p}`, filter.accountId);
  if (filter.type !== undefined) add((p) => `p.type_id = ${p}`, filter.type);
  // IBANs are stored without spaces in upper case, ledger addresses as entered (trimmed).
  if (filter.iban !== undefined) add((p) => `p.iban = ANY(${p}::text[])`, [filter.iban.trim(), normalizeIban(filter.iban)]);
  if (!filter.includeArchived && !filter.ids) where.push('NOT p.log_is_log');
  return where.join(' AND ');
}

const PROFILE_SELECT = `SELECT p.id, p.company_uuid, c.name AS company_name, p.account_id, p.type_id, p.iban, p.bic, p.banking_reference_number, p.log_is_log
       FROM payment_profile p
       JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid`;

/** The rows as answered, with the heads of their ledger accounts (asked of the accounting module, which owns ledger_account). */
async function toPaymentProfiles(tx: Tx, instanceId: string, rows: readonly Row[]): Promise<PaymentProfile[]> {
  const accountIds = [...new Set(rows.flatMap((row) => (row.account_id === null ? [] : [row.account_id])))];
  const accounts = accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : [];
  const heads = new Map(accounts.map((a) => [a.id, { id: a.id, number: a.number, name: a.name }]));
  return rows.map((row) => toPaymentProfile(row, heads));
}

/** Payment profiles sorted by id; archived ones only with `includeArchived` or by id. */
export async function selectPaymentProfiles(tx: Tx, instanceId: string, filter: PaymentProfileFilter = {}): Promise<PaymentProfile[]> {
  const params: unknown[] = [instanceId];
  const where = profileWhere(filter, params);
  const rows = await tx.query<Row>(`${PROFILE_SELECT} WHERE ${where} ORDER BY p.id`, params);
  return toPaymentProfiles(tx, instanceId, rows);
}

/**
 * One page of the payment profiles of `filter`, by id (decision 036): `page` is an offset, a
 * `cursor` the id of the previous page's last profile (keyset on the primary key (instance_id,
 * id)). `total` is counted up to COUNT_CAP (`totalCapped` above) on a walk's first page and carried
 * by the cursor to the next; `nextCursor` is null on the last page.
 * @throws 400 on `cursor` for a cursor that is not one of this list's.
 */
export async function selectPaymentProfilePage(
  tx: Tx,
  instanceId: string,
  filter: PaymentProfileFilter,
  page: PageRequest,
): Promise<{ data: PaymentProfile[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId];
  const where = profileWhere(filter, params);
  // Every profile has its company (foreign key), so the count needs no join.
  const counted = await countUpTo(tx, `SELECT 1 FROM payment_profile p WHERE ${where}`, params, page);
  const after = page.cursor ? ` AND ${afterKey(['p.id'], ['int'], 'asc', decodeCursor(page.cursor, ['int']), params)}` : '';
  const rows = await tx.query<Row>(`${PROFILE_SELECT} WHERE ${where}${after} ORDER BY p.id ${limitOffset(page)}`, params);
  const paged = pageOf(rows, page, (row) => [row.id], counted);
  return { data: await toPaymentProfiles(tx, instanceId, paged.rows), ...counted, nextCursor: paged.nextCursor };
}

export async function archivePaymentProfile(tx: Tx, instanceId: string, id: number): Promise<void> {
  await tx.query('UPDATE payment_profile SET log_is_log = true, archived_at = now() WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}

export async function deletePaymentProfile(tx: Tx, instanceId: string, id: number): Promise<void> {
  await tx.query('DELETE FROM payment_profile WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}
