/**
 * Open bills asked by the modules that compose payables (wiring's company ap-ar, issue 11 §3):
 * payables reads its own table, the caller adds what other modules own (company names).
 */
import type { Tx } from '../../db/database.js';
import { OPEN_STATUSES } from './payables.service.js';

/** An open bill (pending, approved, in a transaction group); amounts decimal strings in the bill's currency. */
export interface OpenBill {
  uuid: string;
  id: number;
  companyUuid: string;
  referenceNumber: string | null;
  /** YYYY-MM-DD. */
  date: string;
  dueDate: string | null;
  /** Gross amount in the bill's currency. */
  amount: string;
  /** Bill currency → books' currency. */
  exchangeRate: string;
}

/** The open bills of the given companies, by date then id; one query for any number of companies. */
export async function openBillsOfCompanies(tx: Tx, instanceId: string, companyUuids: readonly string[]): Promise<OpenBill[]> {
  if (companyUuids.length === 0) return [];
  const rows = await tx.query<{ uuid: string; id: number; company_uuid: string; reference_number: string | null; date: string; due_date: string | null; amount: string; exchange_rate: string }>(
    `SELECT uuid, id, company_uuid, reference_number, date::text AS date, due_date::text AS due_date, amount::text AS amount, exchange_rate::text AS exchange_rate
       FROM payable WHERE instance_id = $1 AND company_uuid = ANY($2::uuid[]) AND status = ANY($3::smallint[]) ORDER BY date, id`,
    [instanceId, [...companyUuids], OPEN_STATUSES],
  );
  return rows.map((row) => ({
    uuid: row.uuid,
    id: row.id,
    companyUuid: row.company_uuid,
    referenceNumber: row.reference_number,
    date: row.date,
    dueDate: row.due_date,
    amount: row.amount,
    exchangeRate: row.exchange_rate,
  }));
}
