/** Data access for payment profiles (spec §3 "Payment profile"). */
import { explorerLink } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
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
  companyUuid?: string;
  accountId?: number;
  type?: number;
  includeArchived?: boolean;
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

/** Payment profiles sorted by id; archived ones only with `includeArchived` or by id. */
export async function selectPaymentProfiles(tx: Tx, instanceId: string, filter: PaymentProfileFilter = {}): Promise<PaymentProfile[]> {
  const params: unknown[] = [instanceId];
  const where = ['p.instance_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.ids) add((p) => `p.id = ANY(${p}::int[])`, filter.ids);
  if (filter.companyUuid) add((p) => `p.company_uuid = ${p}`, filter.companyUuid);
  if (filter.accountId !== undefined) add((p) => `p.account_id = ${p}`, filter.accountId);
  if (filter.type !== undefined) add((p) => `p.type_id = ${p}`, filter.type);
  if (!filter.includeArchived && !filter.ids) where.push('NOT p.log_is_log');
  const rows = await tx.query<Row>(
    `SELECT p.id, p.company_uuid, c.name AS company_name, p.account_id, p.type_id, p.iban, p.bic, p.banking_reference_number, p.log_is_log
       FROM payment_profile p
       JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
      WHERE ${where.join(' AND ')}
      ORDER BY p.id`,
    params,
  );
  // The ledger's own accounts, asked of the accounting module (it owns ledger_account).
  const accountIds = [...new Set(rows.flatMap((row) => (row.account_id === null ? [] : [row.account_id])))];
  const accounts = accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : [];
  const heads = new Map(accounts.map((a) => [a.id, { id: a.id, number: a.number, name: a.name }]));
  return rows.map((row) => toPaymentProfile(row, heads));
}

export async function archivePaymentProfile(tx: Tx, instanceId: string, id: number): Promise<void> {
  await tx.query('UPDATE payment_profile SET log_is_log = true, archived_at = now() WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}

export async function deletePaymentProfile(tx: Tx, instanceId: string, id: number): Promise<void> {
  await tx.query('DELETE FROM payment_profile WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}
