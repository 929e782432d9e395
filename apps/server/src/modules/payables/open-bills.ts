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
  /** Open amount in the bill's currency: gross less part payments and write-offs (issue 14 §3). */
  amount: string;
  /** Bill currency → books' currency. */
  exchangeRate: string;
}

/** The open bills of the given companies, by date then id; one query for any number of companies. */
export async function openBillsOfCompanies(tx: Tx, instanceId: string, companyUuids: readonly string[]): Promise<OpenBill[]> {
  if (companyUuids.length === 0) return [];
  const rows = await tx.query<{ uuid: string; id: number; company_uuid: string; reference_number: string | null; date: string; due_date: string | null; amount: string; exchange_rate: string }>(
    `SELECT p.uuid, p.id, p.company_uuid, p.reference_number, p.date::text AS date, p.due_date::text AS due_date,
            (p.amount - coalesce((SELECT sum(x.amount + x.write_off) FROM payable_payment x
                                   WHERE x.instance_id = p.instance_id AND x.payable_id = p.id AND x.reversed_at IS NULL), 0))::text AS amount,
            p.exchange_rate::text AS exchange_rate
       FROM payable p WHERE p.instance_id = $1 AND p.company_uuid = ANY($2::uuid[]) AND p.status = ANY($3::smallint[]) ORDER BY p.date, p.id`,
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
