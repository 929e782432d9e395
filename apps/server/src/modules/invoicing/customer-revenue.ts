/**
 * Revenue per customer for the analytics (spec §7.1 "Analytics", issue 12 §4): what the invoices of
 * a period posted to revenue, by customer company.
 */
import { AccountType, Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { documentTurnovers } from '../accounting/accounting.service.js';
import { companyHeadsByUuid } from '../companies/companies.service.js';

export interface CustomerRevenue {
  companyUuid: string;
  name: string;
  /** Net revenue (without VAT) in the books' currency, 2 decimals; negative when denials outweigh. */
  amount: string;
  /** Invoices with a sending or denial dated in the period. */
  invoices: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Net revenue per customer from the invoices' postings dated dateFrom…dateTo (inclusive), read
 * from the ledger: a sent invoice counts what its sending credited to revenue accounts at its
 * ledger date — net of VAT, in the books' currency at the invoice's rate, with the 5-Rappen
 * rounding — and a denied invoice's reversal subtracts it again at the denial's ledger date (Bilan
 * has no credit notes: denial is how an invoice is cancelled). Payments do not count, so a realized
 * exchange gain (6952) is not revenue of the customer. Customers without such postings are absent.
 */
export async function revenueByCustomer(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<CustomerRevenue[]> {
  const turnovers = await documentTurnovers(tx, instanceId, { source: 'invoice', accountTypeId: AccountType.revenue, dateFrom, dateTo });
  const refs = [...new Set(turnovers.flatMap((t) => (t.documentRef && UUID.test(t.documentRef) ? [t.documentRef] : [])))];
  if (refs.length === 0) return [];
  const invoices = await tx.query<{ uuid: string; company_uuid: string; sent_entry_id: number | null; denied_entry_id: number | null }>(
    'SELECT uuid, company_uuid, sent_entry_id, denied_entry_id FROM invoice WHERE instance_id = $1 AND uuid = ANY ($2::uuid[])',
    [instanceId, refs],
  );
  const byUuid = new Map(invoices.map((invoice) => [invoice.uuid, invoice]));
  const perCompany = new Map<string, { amount: Money; invoices: Set<string> }>();
  for (const turnover of turnovers) {
    const invoice = turnover.documentRef ? byUuid.get(turnover.documentRef) : undefined;
    if (!invoice || (turnover.entryId !== invoice.sent_entry_id && turnover.entryId !== invoice.denied_entry_id)) continue;
    const sums = perCompany.get(invoice.company_uuid) ?? { amount: new Money(0), invoices: new Set<string>() };
    // A revenue credit is a negative debit − credit: revenue is its negation.
    sums.amount = sums.amount.minus(new Money(turnover.balance));
    sums.invoices.add(invoice.uuid);
    perCompany.set(invoice.company_uuid, sums);
  }
  const names = await companyHeadsByUuid(tx, instanceId, [...perCompany.keys()]);
  return [...perCompany].map(([companyUuid, sums]) => ({
    companyUuid,
    name: names.get(companyUuid)?.name ?? companyUuid,
    amount: toFixedAmount(sums.amount),
    invoices: sums.invoices.size,
  }));
}
