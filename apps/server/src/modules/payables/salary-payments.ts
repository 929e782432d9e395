/**
 * Net salaries owed to employees (issue 16 §3, decision 026): claims the salary import hands to
 * payables so a payment run pays them, and the ISO 20022 category purpose SALA that marks them in
 * the pain.001 (SPS IG pain.001 2022: PmtTpInf/CtgyPurp/Cd). Kept in its own file beside the bills
 * it extends; the bill lifecycle itself is unchanged.
 */
import { BillType, PayableStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { changePayableStatus, insertPayable } from './payables.service.js';
import { matchOrCreateSupplier } from './supplier-match.service.js';

/** One employee's net salary of one period. */
export interface SalaryClaimInput {
  /** The employee as the payroll names them; matched to a company (person) by IBAN, else by name, else created. */
  employee: string;
  /** The employee's IBAN (valid, normalised by the caller). */
  iban: string;
  /** Net salary, decimal string, > 0, instance currency. */
  amount: string;
  /** Ledger date of the claim (the period's salary date) and its due date. */
  date: string;
  /** Journal text of the claim's booking, e.g. 'Net salary 2026-03 Anna Muster'. */
  description: string;
  /** Remittance text on the transfer, e.g. 'Salary 2026-03'. */
  message: string;
  /** The salary clearing account (1091 Lohndurchlaufkonto) the salary entry left the net pay on. */
  clearingAccountId: number;
}

/**
 * Creates each claim as an approved staff expense: the employee as a company with an IBAN payment
 * profile (payables' supplier match, decision 026), booked by the expense's own approval — debit the
 * clearing account / credit staff liabilities 2250 — and marked category purpose SALA. Returns the
 * expenses' uuids in input order. Inside the caller's transaction: all or nothing with the import.
 */
export async function insertSalaryClaims(tx: Tx, instanceId: string, userId: string | null, claims: readonly SalaryClaimInput[]): Promise<string[]> {
  const uuids: string[] = [];
  for (const claim of claims) {
    const { company, paymentProfile } = await matchOrCreateSupplier(tx, instanceId, { name: claim.employee, iban: claim.iban });
    const expense = await insertPayable(tx, instanceId, {
      type: BillType.expense,
      companyUuid: company.uuid,
      paymentProfileId: paymentProfile.id,
      date: claim.date,
      dueDate: claim.date,
      amount: claim.amount,
      vatAmount: '0.00',
      vatRate: null,
      currency: null,
      exchangeRate: null,
      expenseAccountId: claim.clearingAccountId,
      referenceNumber: null,
      message: claim.message,
      description: claim.description,
    });
    await tx.query(`UPDATE payable SET category_purpose = 'SALA' WHERE instance_id = $1 AND uuid = $2`, [instanceId, expense.uuid]);
    await changePayableStatus(tx, instanceId, userId, expense.uuid, PayableStatus.approved, claim.date);
    uuids.push(expense.uuid);
  }
  return uuids;
}

/** The category purpose (e.g. 'SALA') of each of the group's bills that has one, by bill uuid. */
export async function categoryPurposesOfGroup(tx: Tx, instanceId: string, groupId: number): Promise<Map<string, 'SALA'>> {
  const rows = await tx.query<{ uuid: string; category_purpose: 'SALA' }>(
    'SELECT uuid, category_purpose FROM payable WHERE instance_id = $1 AND transaction_group_id = $2 AND category_purpose IS NOT NULL',
    [instanceId, groupId],
  );
  return new Map(rows.map((row) => [row.uuid, row.category_purpose]));
}
