/**
 * Transaction groups (spec §3, §4; issue #5 §3): approved bills paid together with one pain.001 file.
 *
 * Status (TransactionGroupStatus): pending 1 → initiated 4 (the file went to the bank) → paid 2
 * (each bill's payment is booked: debit payables / credit the group's bank account, at the paid
 * date; bills → paid). pending or initiated → denied 3 (bills go back to approved, out of the
 * group). paid and denied are final, except that a pain.002 rejecting every bill of a paid group
 * denies it (its payments are reversed, bank-settlement.ts). Only a pending group may be
 * deleted (its bills go back to approved). Each bill keeps its own requested execution date: the
 * pain.001 has one payment information block per date.
 */
import { countryIsoCode, PayableStatus, PaymentProfileType, toFixedAmount, toMoney, TransactionGroupStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import { payableError } from './payables.errors.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { activeProfilesOf, companyNames, firstAddresses, paymentProfileHeads } from '../companies/companies.service.js';
import { ownCompanyUuid } from '../instances/instances.service.js';
import { buildPain001, Pain001Error, type Pain001Currency, type Pain001Payment } from '../../lib/pain001.js';
import { bookPayment, listPayables, PAYABLE_SELECT, payableAnswer, today, type PayableAnswer, type PayableRow } from './payables.service.js';
import { transactionGroupStatusName } from './outflows.js';
import { categoryPurposesOfGroup } from './salary-payments.js';

export const bankStatusName: Record<number, string> = { 1: 'pending', 2: 'paid', 3: 'pain002Accp', 4: 'pain002Rjctd', 5: 'pain002Part' };

export interface GroupAnswer {
  id: number;
  uuid: string;
  status: number;
  statusName: string;
  bankStatus: number;
  bankStatusName: string;
  /** The earliest requested execution date of its bills (the group's default). */
  executionDate: string;
  /** Every requested execution date of its bills, ascending: one PmtInf block each. */
  executionDates: string[];
  paidDate: string | null;
  count: number;
  total: string;
  debtor: { account: { id: number; number: string; name: string }; iban: string; bic: string | null; company: { name: string } };
  createdAt: string;
}

interface GroupRow {
  id: number;
  uuid: string;
  status: number;
  bank_status: number;
  execution_date: string;
  paid_date: string | null;
  debtor_account_id: number;
  debtor_iban: string;
  debtor_bic: string | null;
  debtor_name: string;
  created_at: string;
  count: string;
  total: string | null;
  dates: string[] | null;
  [key: string]: unknown;
}

const GROUP_SELECT = `
  SELECT g.id, g.uuid, g.status, g.bank_status, g.execution_date, g.paid_date, g.debtor_account_id, g.debtor_iban, g.debtor_bic, g.debtor_name, g.created_at,
         (SELECT count(*) FROM payable p WHERE p.instance_id = g.instance_id AND p.transaction_group_id = g.id) AS count,
         (SELECT sum(p.amount * p.exchange_rate) FROM payable p WHERE p.instance_id = g.instance_id AND p.transaction_group_id = g.id)::text AS total,
         (SELECT array_agg(DISTINCT coalesce(p.execution_date, g.execution_date)::text ORDER BY coalesce(p.execution_date, g.execution_date)::text)
            FROM payable p WHERE p.instance_id = g.instance_id AND p.transaction_group_id = g.id) AS dates
    FROM transaction_group g`;

type AccountHeads = ReadonlyMap<number, { number: string; name: string }>;

/** The debtor ledger accounts of `rows`, asked of accounting once for the list. */
async function debtorAccounts(tx: Tx, instanceId: string, rows: readonly GroupRow[]): Promise<AccountHeads> {
  const ids = [...new Set(rows.map((row) => row.debtor_account_id))];
  const accounts = ids.length ? await listLedgerAccounts(tx, instanceId, { ids }) : [];
  return new Map(accounts.map((account) => [account.id, account]));
}

const toGroup = (row: GroupRow, accounts: AccountHeads): GroupAnswer => ({
  id: row.id,
  uuid: row.uuid,
  status: row.status,
  statusName: transactionGroupStatusName[row.status] ?? String(row.status),
  bankStatus: row.bank_status,
  bankStatusName: bankStatusName[row.bank_status] ?? String(row.bank_status),
  executionDate: row.execution_date,
  executionDates: row.dates ?? [],
  paidDate: row.paid_date,
  count: Number(row.count),
  total: toFixedAmount(row.total ?? '0'),
  debtor: {
    account: { id: row.debtor_account_id, number: accounts.get(row.debtor_account_id)?.number ?? '', name: accounts.get(row.debtor_account_id)?.name ?? '' },
    iban: row.debtor_iban,
    bic: row.debtor_bic,
    company: { name: row.debtor_name },
  },
  createdAt: row.created_at,
});

export async function listGroups(tx: Tx, instanceId: string): Promise<{ data: GroupAnswer[]; total: number }> {
  const rows = await tx.query<GroupRow>(`${GROUP_SELECT} WHERE g.instance_id = $1 ORDER BY g.id DESC`, [instanceId]);
  const accounts = await debtorAccounts(tx, instanceId, rows);
  return { data: rows.map((row) => toGroup(row, accounts)), total: rows.length };
}

export async function getGroup(tx: Tx, instanceId: string, id: number, lock = false): Promise<GroupAnswer & { Payable: PayableAnswer[] }> {
  const [row] = await tx.query<GroupRow>(`${GROUP_SELECT} WHERE g.instance_id = $1 AND g.id = $2${lock ? ' FOR UPDATE OF g' : ''}`, [instanceId, id]);
  if (!row) throw payableError('transaction_group_not_found', `Transaction group ${id} not found`);
  const payables = await listPayables(tx, instanceId, { transactionGroupId: id }, { page: 1, pageSize: 10_000 });
  return { ...toGroup(row, await debtorAccounts(tx, instanceId, [row])), Payable: payables.data };
}

/** Every group with its bills (list-w-accounts). */
export async function listGroupsWithPayables(tx: Tx, instanceId: string) {
  const groups = await listGroups(tx, instanceId);
  const rows = await tx.query<PayableRow>(`${PAYABLE_SELECT} WHERE p.instance_id = $1 AND p.transaction_group_id IS NOT NULL ORDER BY p.id`, [instanceId]);
  const byGroup = new Map<number, PayableAnswer[]>();
  for (const bill of rows.map(payableAnswer)) {
    byGroup.set(bill.transactionGroup!.id, [...(byGroup.get(bill.transactionGroup!.id) ?? []), bill]);
  }
  return { data: groups.data.map((group) => ({ ...group, Payable: byGroup.get(group.id) ?? [] })), total: groups.total };
}

/** A bank account of the own company that can pay a group: its ledger account and IBAN. */
export interface DebtorAccount {
  account: { id: number; number: string; name: string };
  paymentProfile: { id: number };
  iban: string;
  bic: string | null;
  name: string;
}

/**
 * The own company's bank accounts that can pay (spec §2.7 payment profiles): active IBAN or QR-bill
 * profiles with a ledger account, in profile order (the first one is the default debtor).
 */
export async function listDebtorAccounts(tx: Tx, instanceId: string): Promise<DebtorAccount[]> {
  const own = await ownCompanyUuid(tx, instanceId);
  if (!own) return [];
  const name = (await companyNames(tx, instanceId, [own])).get(own);
  if (name === undefined) return [];
  const profiles = (await activeProfilesOf(tx, instanceId, own)).filter(
    (profile) => profile.iban !== null && profile.accountId !== null && (profile.type === PaymentProfileType.Iban || profile.type === PaymentProfileType.QrBill),
  );
  const accountIds = [...new Set(profiles.map((profile) => profile.accountId!))];
  const accounts = new Map((accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : []).map((account) => [account.id, account]));
  return profiles.flatMap((profile) => {
    const account = accounts.get(profile.accountId!);
    if (!account) return [];
    return [{ account: { id: account.id, number: account.number, name: account.name }, paymentProfile: { id: profile.id }, iban: profile.iban!, bic: profile.bic, name }];
  });
}

export interface GroupInput {
  payableUuids: string[];
  /** Requested execution date per bill (same order as `payableUuids`); null: `executionDate`. */
  executionDates?: (string | null)[] | undefined;
  /** The paying bank ledger account (one of listDebtorAccounts); default the first. */
  debtorAccountId?: number | undefined;
  /** Default requested execution date; default today. */
  executionDate?: string | undefined;
}

/**
 * Creates a pending group from approved bills that have an IBAN payment profile; the bills move
 * to status 3 with their execution date. 400 names `payable.uuids.N` (unknown, not approved, no
 * IBAN), `payable.executionDates` (not one per bill) or `debtor.account.id` (not an own bank account).
 */
export async function insertGroup(tx: Tx, instanceId: string, input: GroupInput): Promise<GroupAnswer & { Payable: PayableAnswer[] }> {
  const fields: Record<string, string> = {};
  const rows = await tx.query<{ uuid: string; id: number; status: number; payment_profile_id: number | null }>(
    `SELECT p.uuid, p.id, p.status, p.payment_profile_id FROM payable p
      WHERE p.instance_id = $1 AND p.uuid = ANY($2::uuid[]) FOR UPDATE OF p`,
    [instanceId, input.payableUuids],
  );
  const profiles = await paymentProfileHeads(tx, instanceId, rows.flatMap((row) => (row.payment_profile_id === null ? [] : [row.payment_profile_id])));
  const byUuid = new Map(rows.map((row) => [row.uuid, { ...row, iban: row.payment_profile_id === null ? null : (profiles.get(row.payment_profile_id)?.iban ?? null) }]));
  const seen = new Set<string>();
  input.payableUuids.forEach((uuid, index) => {
    const row = byUuid.get(uuid);
    const field = `payable.uuids.${index}`;
    if (seen.has(uuid)) fields[field] = 'listed twice';
    else if (!row) fields[field] = `payable ${uuid} not found`;
    else if (row.status !== PayableStatus.approved) fields[field] = 'only approved bills that are in no group can be grouped';
    else if (!row.iban) fields[field] = 'the bill has no IBAN payment profile to pay to';
    seen.add(uuid);
  });
  if (input.executionDates && input.executionDates.length !== input.payableUuids.length) {
    fields['payable.executionDates'] = 'give one execution date per bill (same order as uuids)';
  }
  const accounts = await listDebtorAccounts(tx, instanceId);
  const debtor = input.debtorAccountId === undefined ? accounts[0] : accounts.find((a) => a.account.id === input.debtorAccountId);
  if (!debtor) {
    fields['debtor.account.id'] =
      input.debtorAccountId === undefined
        ? 'no bank account (payment profile with IBAN and ledger account) of the own company'
        : 'not a bank account of the own company (payment profile with IBAN and ledger account)';
  }
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw payableError('invalid_transaction_group', `${first![0]}: ${first![1]}`, fields);
  }
  const fallback = input.executionDate ?? today();
  const dates = input.payableUuids.map((_, index) => input.executionDates?.[index] ?? fallback);
  const [group] = await tx.query<{ id: number }>(
    `INSERT INTO transaction_group (instance_id, id, debtor_account_id, debtor_iban, debtor_bic, debtor_name, execution_date)
     VALUES ($1, next_ids($1, 'transaction_group'), $2, $3, $4, $5, $6) RETURNING id`,
    [instanceId, debtor!.account.id, debtor!.iban, debtor!.bic, debtor!.name, [...dates].sort()[0]],
  );
  await tx.query(
    `UPDATE payable p SET status = 3, transaction_group_id = $3, execution_date = d.date
       FROM unnest($2::uuid[], $4::date[]) AS d(uuid, date)
      WHERE p.instance_id = $1 AND p.uuid = d.uuid`,
    [instanceId, input.payableUuids, group!.id, dates],
  );
  return getGroup(tx, instanceId, group!.id);
}

const TRANSITIONS: Record<number, number[]> = {
  [TransactionGroupStatus.pending]: [TransactionGroupStatus.initiated, TransactionGroupStatus.denied],
  [TransactionGroupStatus.initiated]: [TransactionGroupStatus.paid, TransactionGroupStatus.denied],
};

/**
 * Changes a group's status under the rules above (paid books each bill's payment); 409 for a
 * transition they do not allow, 409 `already_done` when the group has that status already. The
 * group row is locked first (then its bills), so parallel identical calls post once.
 */
export async function changeGroupStatus(tx: Tx, instanceId: string, userId: string | null, id: number, status: number, date?: string) {
  const group = await getGroup(tx, instanceId, id, true);
  if (group.status === status) {
    throw alreadyDone(`transaction group ${id} is already ${group.statusName}`, { status: `already ${group.statusName}` });
  }
  if (!TRANSITIONS[group.status]?.includes(status)) {
    throw payableError('status_transition', `a transaction group cannot go from ${group.statusName} to ${transactionGroupStatusName[status]}`, { status: 'transition not allowed' });
  }
  if (status === TransactionGroupStatus.paid) {
    const paidDate = date ?? group.executionDate;
    for (const bill of group.Payable) {
      if (bill.status === PayableStatus.inTransactionGroup) await bookPayment(tx, instanceId, userId, bill, group.debtor.account.id, paidDate);
    }
    await tx.query('UPDATE transaction_group SET status = 2, paid_date = $3 WHERE instance_id = $1 AND id = $2', [instanceId, id, paidDate]);
  } else if (status === TransactionGroupStatus.denied) {
    await tx.query(
      'UPDATE payable SET status = 2, transaction_group_id = NULL, execution_date = NULL WHERE instance_id = $1 AND transaction_group_id = $2 AND status = 3',
      [instanceId, id],
    );
    await tx.query('UPDATE transaction_group SET status = 3 WHERE instance_id = $1 AND id = $2', [instanceId, id]);
  } else {
    await tx.query('UPDATE transaction_group SET status = $3 WHERE instance_id = $1 AND id = $2', [instanceId, id, status]);
  }
  return getGroup(tx, instanceId, id);
}

/**
 * Pays a group (spec §7.1 `/transaction-group/pay {id, token}`, issue 14 §3): pending or initiated →
 * paid, each bill's payment booked at `date` (default the execution date) as `changeGroupStatus`
 * does. `token` is a one-time confirmation token (the detail's `payToken`): the call that paid the
 * group keeps it, and the same token on that group answers it again and books nothing. Another
 * token on a paid group: 409 `already_done`. The group row is locked first, so 20 parallel calls
 * with one token book once.
 */
export async function payGroup(tx: Tx, instanceId: string, userId: string | null, id: number, token: string, date?: string | null) {
  const group = await getGroup(tx, instanceId, id, true);
  if (group.status === TransactionGroupStatus.paid) {
    const [row] = await tx.query<{ pay_token: string | null }>('SELECT pay_token FROM transaction_group WHERE instance_id = $1 AND id = $2', [instanceId, id]);
    if (row?.pay_token === token) return group;
  }
  if (group.status === TransactionGroupStatus.pending) {
    // Paying a pending group is sending and settling it at once (e.g. a file uploaded to e-banking by hand).
    await tx.query('UPDATE transaction_group SET status = $3 WHERE instance_id = $1 AND id = $2', [instanceId, id, TransactionGroupStatus.initiated]);
  }
  await changeGroupStatus(tx, instanceId, userId, id, TransactionGroupStatus.paid, date ?? undefined);
  await tx.query('UPDATE transaction_group SET pay_token = $3 WHERE instance_id = $1 AND id = $2', [instanceId, id, token]);
  return getGroup(tx, instanceId, id);
}

/** Deletes a pending group; its bills go back to approved. 409 once initiated, paid or denied. */
export async function deleteGroup(tx: Tx, instanceId: string, id: number): Promise<void> {
  const group = await getGroup(tx, instanceId, id, true);
  if (group.status !== TransactionGroupStatus.pending) throw payableError('transaction_group_not_pending', `only a pending transaction group can be deleted (status ${group.statusName})`);
  await tx.query('UPDATE payable SET status = 2, transaction_group_id = NULL, execution_date = NULL WHERE instance_id = $1 AND transaction_group_id = $2', [
    instanceId,
    id,
  ]);
  await tx.query('DELETE FROM transaction_group WHERE instance_id = $1 AND id = $2', [instanceId, id]);
}

/**
 * The group's pain.001.001.09.ch.03 file: one transaction per bill (end-to-end id = the bill's uuid
 * without hyphens, so pain.002 and camt.054 answers find the bill), creditor name and structured
 * address from the supplier's first address. 400 naming `Payable.N.<field>` for a bill the SPS
 * rules refuse.
 */
export async function groupPain001(tx: Tx, instanceId: string, id: number, now = new Date()): Promise<string> {
  const group = await getGroup(tx, instanceId, id);
  if (!group.Payable.length) throw payableError('transaction_group_empty', 'the transaction group has no bills');
  const addressOf = await firstAddresses(
    tx,
    instanceId,
    group.Payable.flatMap((bill) => (bill.company ? [bill.company.uuid] : [])),
  );
  const purposes = await categoryPurposesOfGroup(tx, instanceId, id);
  // Blocks and transactions in execution-date order, then by bill number.
  const bills = [...group.Payable].sort((a, b) => (a.executionDate ?? '').localeCompare(b.executionDate ?? '') || a.id - b.id);
  const payments: Pain001Payment[] = bills.map((bill) => {
    const address = bill.company ? addressOf.get(bill.company.uuid) : undefined;
    return {
      endToEndId: bill.uuid.replace(/-/g, ''),
      executionDate: bill.executionDate ?? group.executionDate,
      debtor: { name: group.debtor.company.name, iban: group.debtor.iban, bic: group.debtor.bic },
      creditor: {
        name: bill.company?.name ?? (bill.description || 'Expense'),
        iban: bill.companyFinance?.iban ?? '',
        bic: bill.companyFinance?.bic ?? null,
        address: address
          ? {
              street: address.street,
              buildingNumber: address.houseNumber,
              postCode: address.zip,
              town: address.city,
              country: countryIsoCode[address.countryId as keyof typeof countryIsoCode] ?? 'CH',
            }
          : null,
      },
      // What is still open: a bill paid in part by hand is transferred for its rest (issue 14 §3).
      amount: toMoney(bill.openAmount).gt(0) ? bill.openAmount : bill.amount,
      // Other currencies are refused by the generator (400 on Payable.N.currency).
      currency: bill.currency as Pain001Currency,
      reference: bill.referenceNumber,
      message: bill.message ?? (bill.description || null),
      categoryPurpose: purposes.get(bill.uuid) ?? null,
    };
  });
  try {
    return buildPain001({ messageId: group.uuid.replace(/-/g, ''), createdAt: now, initiatingParty: group.debtor.company.name, payments }).xml;
  } catch (error) {
    if (error instanceof Pain001Error) {
      // `payments.N` is the N-th bill in file order: name it by its index in the group's `Payable`.
      const field = error.field.replace(/^payments\.(\d+)/, (_, n: string) => `Payable.${group.Payable.indexOf(bills[Number(n)]!)}`);
      const message = error.message.slice(error.field.length + 2);
      throw payableError('pain001_refused', `${field}: ${message}`, { [field]: message });
    }
    throw error;
  }
}
