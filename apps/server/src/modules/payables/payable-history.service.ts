/**
 * What happened to a bill (issue #5 §1 "detail"): its status changes (recorded by the trigger of
 * migration 0008 whatever code path made them), the journal entries that booked it, paid it or
 * reversed either, and its vouchers (inbox files).
 */
import type { Tx } from '../../db/database.js';
import { entriesOfDocuments, getJournalEntry } from '../accounting/accounting.service.js';
import { FILE_COLUMNS, toFile, type FileAnswer } from './inbox.service.js';
import { getPayable, payableStatusName } from './payables.service.js';

export interface PayableHistory {
  events: {
    at: string;
    fromStatus: number | null;
    status: number;
    statusName: string;
    transactionGroup: { id: number } | null;
    bookingEntry: { id: number } | null;
    paymentEntry: { id: number } | null;
  }[];
  entries: {
    id: number;
    dateLedger: string;
    description: string;
    source: string;
    /** booking (approval), payment, or reversal of one of the two (`reverses`). */
    role: 'booking' | 'payment' | 'reversal';
    reverses: { id: number } | null;
    entryAccounts: { account: { id: number; number: string; name: string }; amount: string; direction: 1 | -1 }[];
  }[];
  files: FileAnswer[];
}

const ref = (id: number | null) => (id === null ? null : { id });

/** The history of one bill by uuid; 404 when it is not one of the instance's. */
export async function payableHistory(tx: Tx, instanceId: string, uuid: string): Promise<PayableHistory> {
  const bill = await getPayable(tx, instanceId, { uuid });
  const events = await tx.query<{
    at: string;
    from_status: number | null;
    status: number;
    transaction_group_id: number | null;
    booking_entry_id: number | null;
    payment_entry_id: number | null;
  }>(
    `SELECT at, from_status, status, transaction_group_id, booking_entry_id, payment_entry_id FROM payable_status_event
      WHERE instance_id = $1 AND payable_id = $2 ORDER BY seq`,
    [instanceId, bill.id],
  );
  // Entries carry their document in source/source_ref: bookings ('bill') and payments ('payment')
  // name the bill's uuid, reversals (reverseEntry, source 'bill') the id of the entry they reverse.
  const heads = await entriesOfDocuments(tx, instanceId, ['bill', 'payment'], [bill.uuid]);
  const entries: PayableHistory['entries'] = [];
  for (const head of heads) {
    const entry = await getJournalEntry(tx, instanceId, head.id);
    entries.push({
      id: entry.id,
      dateLedger: entry.dateLedger,
      description: entry.description,
      source: entry.source,
      role: head.reverses !== null ? 'reversal' : head.source === 'bill' ? 'booking' : 'payment',
      reverses: ref(head.reverses),
      entryAccounts: entry.entryAccounts.map((line) => ({ account: line.account, amount: line.amount, direction: line.direction })),
    });
  }
  const files = await tx.query<Parameters<typeof toFile>[0]>(
    `SELECT ${FILE_COLUMNS} FROM inbox_file WHERE instance_id = $1 AND payable_id = $2 ORDER BY created_at, uuid`,
    [instanceId, bill.id],
  );
  return {
    events: events.map((event) => ({
      at: new Date(event.at).toISOString(),
      fromStatus: event.from_status,
      status: event.status,
      statusName: payableStatusName[event.status] ?? String(event.status),
      transactionGroup: ref(event.transaction_group_id),
      bookingEntry: ref(event.booking_entry_id),
      paymentEntry: ref(event.payment_entry_id),
    })),
    entries,
    files: files.map(toFile),
  };
}
