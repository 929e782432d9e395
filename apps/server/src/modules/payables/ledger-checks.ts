/**
 * What the accounting checks (issue 12 §2, accounting/checks.service.ts `CheckSources`) ask of the
 * bills and staff expenses: those open at a date, and the input VAT of those booked in a period,
 * in the books' currency. Assembled into the accounting routes' port by wiring/wiring.ts.
 *
 * Dates: a bill keeps only its current booking and payment entries, but payable_status_event
 * (migration 0011) keeps the entries linked at every status change, so the history of a bill is
 * every booking and every payment it ever had. Their ledger dates, and those of their reversals
 * (`reverseEntry`: source 'bill', source_ref the reversed entry; a booking reversed when the bill
 * went back to pending or was cancelled, a payment reversed when the bank rejected it), are asked
 * of accounting (`entryDates`, `reversalDates`). A bill is then
 * - booked at D: one of its bookings is dated on or before D and not reversed on or before D;
 * - paid at D: one of its payments is dated on or before D and not reversed on or before D;
 * - open at D: booked and not paid at D.
 * Its amount is the current gross × exchange rate (what the booking credited); a bill changed while
 * back in pending between two bookings counts at its current amount for the earlier one too.
 */
import type { Money} from '@bilan/domain';
import { BillType, formatDate, toFixedAmount, toMoney, type MessageLanguage } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { serverText } from '../../http/server-texts.js';
import { entryDates, reversalDates, type DateRange, type DocumentsVat, type OpenPayable } from '../accounting/accounting.service.js';
import { companyNames } from '../companies/companies.service.js';

interface BillRow {
  id: number;
  uuid: string;
  type_id: number;
  company_uuid: string | null;
  reference_number: string | null;
  description: string;
  date: string;
  amount: string;
  vat_amount: string;
  exchange_rate: string;
  liability_account_id: number | null;
  booking_entry_id: number | null;
  [key: string]: unknown;
}

/** A bill with every booking and payment it has had, each with its date and reversal date. */
interface BillHistory {
  row: BillRow;
  bookings: { date: string; reversed: string | null }[];
  payments: { date: string; reversed: string | null }[];
}

/** Every bill that was ever booked, with its bookings and payments (four queries for all of them). */
async function bookedBills(tx: Tx, instanceId: string): Promise<BillHistory[]> {
  const rows = await tx.query<BillRow>(
    `SELECT p.id, p.uuid::text AS uuid, p.type_id, p.company_uuid::text AS company_uuid, p.reference_number, p.description, p.date::text AS date,
            p.amount::text AS amount, p.vat_amount::text AS vat_amount, p.exchange_rate::text AS exchange_rate, p.liability_account_id, p.booking_entry_id
       FROM payable p
      WHERE p.instance_id = $1
        AND (p.booking_entry_id IS NOT NULL
             OR EXISTS (SELECT 1 FROM payable_status_event e WHERE e.instance_id = p.instance_id AND e.payable_id = p.id AND e.booking_entry_id IS NOT NULL))`,
    [instanceId],
  );
  if (rows.length === 0) return [];
  const events = await tx.query<{ payable_id: number; booking_entry_id: number | null; payment_entry_id: number | null }>(
    `SELECT payable_id, booking_entry_id, payment_entry_id FROM payable_status_event
      WHERE instance_id = $1 AND payable_id = ANY ($2::int[]) AND (booking_entry_id IS NOT NULL OR payment_entry_id IS NOT NULL)`,
    [instanceId, rows.map((row) => row.id)],
  );
  const ids = new Map(rows.map((row) => [row.id, { bookings: new Set<number>(row.booking_entry_id === null ? [] : [row.booking_entry_id]), payments: new Set<number>() }]));
  for (const event of events) {
    const bill = ids.get(event.payable_id)!;
    if (event.booking_entry_id !== null) bill.bookings.add(event.booking_entry_id);
    if (event.payment_entry_id !== null) bill.payments.add(event.payment_entry_id);
  }
  const all = [...ids.values()].flatMap((bill) => [...bill.bookings, ...bill.payments]);
  const dates = await entryDates(tx, instanceId, all);
  const reversed = await reversalDates(tx, instanceId, 'bill', all);
  const dated = (entries: Set<number>) =>
    [...entries].flatMap((id) => {
      const date = dates.get(id);
      return date === undefined ? [] : [{ date, reversed: reversed.get(id) ?? null }];
    });
  return rows.map((row) => ({ row, bookings: dated(ids.get(row.id)!.bookings), payments: dated(ids.get(row.id)!.payments) }));
}

const inForceAt = (date: string) => (entry: { date: string; reversed: string | null }) => entry.date <= date && (entry.reversed === null || entry.reversed > date);

/** Gross or VAT × exchange rate, half-up to the cent: as the booking posted it (payables bookBill). */
const base = (amount: string, rate: string): Money => toMoney(toFixedAmount(toMoney(amount).times(toMoney(rate))));

/**
 * The bills and staff expenses open at `date` (booked and not paid at that date, see above), each
 * for its gross in the books' currency on the liability account its booking credited, by bill date;
 * labels in `language`.
 */
export async function openPayablesAt(tx: Tx, instanceId: string, date: string, language: MessageLanguage = 'en'): Promise<OpenPayable[]> {
  const booked = (await bookedBills(tx, instanceId)).filter((bill) => bill.bookings.some(inForceAt(date)) && !bill.payments.some(inForceAt(date)));
  // Part payments and write-offs in force at `date` (issue 14 §3): what they settled is not open.
  const rows = booked.length
    ? await tx.query<{ payable_id: number; settled: string }>(
        `SELECT payable_id, sum(amount + write_off)::text AS settled FROM payable_payment
          WHERE instance_id = $1 AND payable_id = ANY($2::int[]) AND date_paid <= $3 AND (reversal_date IS NULL OR reversal_date > $3)
          GROUP BY payable_id`,
        [instanceId, booked.map((bill) => bill.row.id), date],
      )
    : [];
  const settled = new Map(rows.map((row) => [row.payable_id, toMoney(row.settled)]));
  const open = booked
    .map((bill) => ({ ...bill, openAmount: toMoney(bill.row.amount).minus(settled.get(bill.row.id) ?? toMoney(0)) }))
    .filter((bill) => bill.openAmount.gt(0));
  const names = await companyNames(tx, instanceId, open.flatMap(({ row }) => (row.company_uuid ? [row.company_uuid] : [])));
  return open
    .sort((a, b) => a.row.date.localeCompare(b.row.date) || a.row.id - b.row.id)
    .map(({ row, openAmount }) => {
      const isExpense = row.type_id === BillType.expense;
      const who = row.company_uuid ? names.get(row.company_uuid) ?? '' : row.description ? `"${row.description}"` : '';
      return {
        kind: isExpense ? ('expense' as const) : ('bill' as const),
        label: [
          isExpense ? serverText(language, 'Expense {{id}}', { id: row.id }) : serverText(language, 'Bill {{id}}', { id: row.id }),
          who,
          row.reference_number ? `(${row.reference_number})` : '',
          serverText(language, 'of {{date}}', { date: formatDate(row.date) }),
        ]
          .filter(Boolean)
          .join(' '),
        link: `/bill/${row.uuid}/detail`,
        amount: toFixedAmount(base(toFixedAmount(openAmount), row.exchange_rate)),
        // A current booking names its account; an earlier one (reversed since) was on its kind's control account.
        accountId: row.booking_entry_id !== null ? row.liability_account_id : null,
      };
    });
}

/**
 * Input VAT of the bills and expenses booked in `range`: for every booking dated in it (a bill
 * booked, sent back to pending and booked again counts twice, as the ledger does), the bill's VAT
 * × exchange rate, as its booking debited 1170/1171.
 */
export async function inputVatOfPeriod(tx: Tx, instanceId: string, range: DateRange): Promise<DocumentsVat> {
  let total: Money = toMoney(0);
  let documents = 0;
  for (const bill of await bookedBills(tx, instanceId)) {
    const vat = base(bill.row.vat_amount, bill.row.exchange_rate);
    const booked = bill.bookings.filter((booking) => booking.date >= range.from && booking.date <= range.to).length;
    if (booked === 0 || !vat.gt(0)) continue;
    documents += 1;
    total = total.plus(vat.times(booked));
  }
  return { amount: toFixedAmount(total), documents };
}
