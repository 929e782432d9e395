/**
 * What the workplace owes ('Creditors', spec §2.10 palette; issue 16 §4): booked open bills per
 * supplier on the payables account 2000, and booked open staff expenses per employee on the staff
 * account 2250 — two lists, because each must agree with the balance of its own account. Also the
 * people staff expenses were owed to so far, which the expense form offers as employees.
 */
import { BillType, currencyCodeById, PaymentProfileType, toFixedAmount, toMoney } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { accountBalance, controlAccount, getLedgerAccount } from '../accounting/accounting.service.js';
import { companyNames, paymentProfileHeads } from '../companies/companies.service.js';

/** Open booked documents of one company (supplier or employee) in one currency. */
export interface CreditorRow {
  /** The supplier or employee; null for documents that name nobody (e.g. imported staff receipts). */
  company: { uuid: string; name: string } | null;
  currency: string;
  /** Open amount (amount less payments and write-offs not reversed) in `currency`, 2 decimals. */
  openAmount: string;
  /** The same in the instance currency at the documents' booked exchange rates. */
  openAmountBase: string;
  bills: number;
  overdue: number;
  /** Soonest due date (due date, else document date) of the open documents. */
  nextDueDate: string | null;
}

/** A liability account with its credit balance (what is owed), to compare a list's total with. */
export interface OwedAccount {
  id: number;
  number: string;
  name: string;
  balance: string;
}

export interface Creditors {
  /** Suppliers: open approved or grouped bills booked on the payables account (2000). */
  data: CreditorRow[];
  total: string;
  payablesAccount: OwedAccount;
  /** Staff: open approved or grouped expenses (salary claims included) booked on the staff account (2250). */
  staff: { data: CreditorRow[]; total: string; account: OwedAccount };
}

/**
 * Open booked documents credited to `accountId`, per company and currency: approved (2) or in a
 * transaction group (3) — pending drafts are not booked yet. `legacyDefault` counts documents
 * without a recorded liability account (booked before migration 0007, always on 2000) too.
 * Soonest due first, then by name (nobody last). `typeId` limits the documents to one BillType.
 */
async function openPerCompany(tx: Tx, instanceId: string, accountId: number, options: { legacyDefault: boolean; typeId?: number }): Promise<CreditorRow[]> {
  const rows = await tx.query<{
    company_uuid: string | null;
    currency_id: number;
    open: string;
    open_base: string;
    bills: string;
    next_due: string | null;
    overdue: string;
  }>(
    `SELECT p.company_uuid, p.currency_id, sum(p.amount - coalesce(s.settled, 0))::text AS open,
            sum(round((p.amount - coalesce(s.settled, 0)) * p.exchange_rate, 2))::text AS open_base,
            count(*) AS bills, min(coalesce(p.due_date, p.date)) AS next_due,
            count(*) FILTER (WHERE coalesce(p.due_date, p.date) < (now() AT TIME ZONE 'Europe/Zurich')::date) AS overdue
       FROM payable p
       -- Part payments and write-offs not reversed (issue 14 §3): the open amount of each bill.
       LEFT JOIN (SELECT payable_id, sum(amount + write_off) AS settled FROM payable_payment
                   WHERE instance_id = $1 AND reversed_at IS NULL GROUP BY payable_id) s ON s.payable_id = p.id
      WHERE p.instance_id = $1 AND p.status IN (2, 3)
        AND (p.liability_account_id = $2 OR ($3 AND p.liability_account_id IS NULL))
        AND ($4::smallint IS NULL OR p.type_id = $4)
      GROUP BY p.company_uuid, p.currency_id`,
    [instanceId, accountId, options.legacyDefault, options.typeId ?? null],
  );
  const names = await companyNames(tx, instanceId, rows.flatMap((row) => (row.company_uuid ? [row.company_uuid] : [])));
  const nameOf = (row: (typeof rows)[number]) => (row.company_uuid ? (names.get(row.company_uuid) ?? null) : null);
  const sorted = [...rows].sort((a, b) => {
    const [nameA, nameB] = [nameOf(a), nameOf(b)];
    return (
      (a.next_due ?? '').localeCompare(b.next_due ?? '') ||
      (nameA === null ? 1 : 0) - (nameB === null ? 1 : 0) ||
      (nameA ?? '').localeCompare(nameB ?? '') ||
      (a.company_uuid ?? '').localeCompare(b.company_uuid ?? '') ||
      a.currency_id - b.currency_id
    );
  });
  return sorted.map((row) => ({
    company: row.company_uuid ? { uuid: row.company_uuid, name: nameOf(row) ?? '' } : null,
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    openAmount: toFixedAmount(row.open),
    openAmountBase: toFixedAmount(row.open_base),
    bills: Number(row.bills),
    overdue: Number(row.overdue),
    nextDueDate: row.next_due,
  }));
}

/** The account with its credit balance (accounting's one balance of an account, issue 11 §3, negated). */
async function owedAccount(tx: Tx, instanceId: string, id: number): Promise<OwedAccount> {
  const account = await getLedgerAccount(tx, instanceId, id);
  return { id, number: account.number, name: account.name, balance: toFixedAmount(toMoney(await accountBalance(tx, instanceId, id)).negated()) };
}

const totalOf = (rows: readonly CreditorRow[]) => toFixedAmount(rows.reduce((sum, row) => sum.plus(toMoney(row.openAmountBase)), toMoney(0)));

/**
 * Creditors: open supplier bills on the payables account (2000) per supplier and currency, and
 * open staff expenses on the staff account (2250 "Personalaufwand" liabilities of the SME chart)
 * per employee and currency — each list's base-currency total equals its account's credit balance
 * when only these documents post there. A chart without 2250 books expenses on 2000 (see
 * `liabilityAccountFor`): they are then listed with the suppliers and the staff list stays empty.
 */
export async function listCreditors(tx: Tx, instanceId: string): Promise<Creditors> {
  const payables = await controlAccount(tx, instanceId, 'payable');
  const staffAccount = await controlAccount(tx, instanceId, 'expenses');
  const suppliers = await openPerCompany(tx, instanceId, payables, { legacyDefault: true });
  const staff = staffAccount === payables ? [] : await openPerCompany(tx, instanceId, staffAccount, { legacyDefault: false, typeId: BillType.expense });
  return {
    data: suppliers,
    total: totalOf(suppliers),
    payablesAccount: await owedAccount(tx, instanceId, payables),
    staff: { data: staff, total: totalOf(staff), account: await owedAccount(tx, instanceId, staffAccount) },
  };
}

/** A person staff expenses were owed to, for the expense form's 'Employee'. */
export interface Employee {
  company: { uuid: string; name: string };
  /** The IBAN profile of their latest expense while it is active: where the next one is refunded to. */
  paymentProfile: { id: number; iban: string } | null;
  /** Staff expenses (salary claims included) of any status. */
  expenses: number;
  lastDate: string;
}

/**
 * The employees: every company (person) a staff expense (BillType 1) was owed to, by name. There is
 * no staff register yet (decision 026: employees are companies with an IBAN profile), so the
 * expenses themselves say who is staff.
 */
export async function listEmployees(tx: Tx, instanceId: string): Promise<Employee[]> {
  const rows = await tx.query<{ company_uuid: string; payment_profile_id: number | null; expenses: string; last_date: string }>(
    `SELECT DISTINCT ON (company_uuid) company_uuid, payment_profile_id, count(*) OVER (PARTITION BY company_uuid) AS expenses, date::text AS last_date
       FROM payable
      WHERE instance_id = $1 AND type_id = $2 AND company_uuid IS NOT NULL
      ORDER BY company_uuid, date DESC, id DESC`,
    [instanceId, BillType.expense],
  );
  const names = await companyNames(tx, instanceId, rows.map((row) => row.company_uuid));
  const profiles = await paymentProfileHeads(tx, instanceId, rows.flatMap((row) => (row.payment_profile_id === null ? [] : [row.payment_profile_id])));
  const employees = rows.map((row) => {
    const profile = row.payment_profile_id === null ? undefined : profiles.get(row.payment_profile_id);
    const usable = profile && !profile.archived && profile.iban && (profile.type === PaymentProfileType.Iban || profile.type === PaymentProfileType.QrBill);
    return {
      company: { uuid: row.company_uuid, name: names.get(row.company_uuid) ?? '' },
      paymentProfile: usable ? { id: profile.id, iban: profile.iban! } : null,
      expenses: Number(row.expenses),
      lastDate: row.last_date,
    };
  });
  return employees.sort((a, b) => a.company.name.localeCompare(b.company.name, 'de-CH') || a.company.uuid.localeCompare(b.company.uuid));
}
