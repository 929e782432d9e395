/**
 * Expenses per supplier for the analytics (spec §7.1 "Analytics", issue 12 §4): what the bills of a
 * period posted to expense accounts, by supplier, with the staff expenses as one row.
 */
import { AccountType, BillType, Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { documentTurnovers } from '../accounting/accounting.service.js';
import { companyHeadsByUuid } from '../companies/companies.service.js';

export interface SupplierExpenses {
  /** The supplier company, or null for the row of all staff expenses. */
  companyUuid: string | null;
  name: string;
  /** Net expenses (without input VAT) in the books' currency, 2 decimals. */
  amount: string;
  /** Bills (or staff expenses) with a booking or its reversal dated in the period. */
  bills: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The name of the one row of staff expenses (BillType expense 1). */
export const STAFF_EXPENSES = 'Staff expenses';

/**
 * Net expenses per supplier from the bills' bookings dated dateFrom…dateTo (inclusive), read from
 * the ledger: an approved bill counts what its booking debited to expense accounts at the bill's
 * date (net of input VAT 1170/1171, in the books' currency at the bill's rate); a booking reversed
 * (bill back to pending, or cancelled) subtracts it at the reversal's date. Payments and their
 * exchange differences do not count; a bill booked on a balance-sheet account (an investment) is
 * not an expense and does not count either.
 *
 * Staff expenses (BillType expense) are one row, 'Staff expenses': they are owed to staff (2250),
 * not to the merchant on the receipt, and a bill records no person to split them by.
 */
export async function expensesBySupplier(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<SupplierExpenses[]> {
  const turnovers = await documentTurnovers(tx, instanceId, { source: 'bill', accountTypeId: AccountType.expenses, dateFrom, dateTo });
  const refs = [...new Set(turnovers.flatMap((t) => (t.documentRef && UUID.test(t.documentRef) ? [t.documentRef] : [])))];
  if (refs.length === 0) return [];
  const bills = await tx.query<{ uuid: string; type_id: number; company_uuid: string | null }>(
    'SELECT uuid, type_id, company_uuid FROM payable WHERE instance_id = $1 AND uuid = ANY ($2::uuid[])',
    [instanceId, refs],
  );
  const byUuid = new Map(bills.map((bill) => [bill.uuid, bill]));
  const STAFF = '';
  const perSupplier = new Map<string, { amount: Money; bills: Set<string> }>();
  for (const turnover of turnovers) {
    const bill = turnover.documentRef ? byUuid.get(turnover.documentRef) : undefined;
    if (!bill) continue;
    const key = bill.type_id === BillType.expense || bill.company_uuid === null ? STAFF : bill.company_uuid;
    const sums = perSupplier.get(key) ?? { amount: new Money(0), bills: new Set<string>() };
    sums.amount = sums.amount.plus(new Money(turnover.balance));
    sums.bills.add(bill.uuid);
    perSupplier.set(key, sums);
  }
  const names = await companyHeadsByUuid(tx, instanceId, [...perSupplier.keys()].filter((key) => key !== STAFF));
  return [...perSupplier].map(([key, sums]) => ({
    companyUuid: key === STAFF ? null : key,
    name: key === STAFF ? STAFF_EXPENSES : (names.get(key)?.name ?? key),
    amount: toFixedAmount(sums.amount),
    bills: sums.bills.size,
  }));
}
