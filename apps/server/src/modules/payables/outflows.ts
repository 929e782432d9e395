/**
 * The outflows report (spec §2.5, §9): ExportOutflows.csv with one line per payable, columns id,
 * date (YYYY-MM-DD), amount, company name or '-', isExpense, status name, transaction-group status
 * name or '-'. Streamed in keyset pages of CHUNK rows, one short transaction each, so 100,000
 * payables export in constant memory (bench/outflows.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Database } from '../../db/database.js';
import { payableStatusName } from './payables.service.js';

const CHUNK = 2000;

export const transactionGroupStatusName: Record<number, string> = { 1: 'pending', 2: 'paid', 3: 'denied', 4: 'initiated' };

export const OUTFLOWS_HEADER = 'id,date,amount,company,isExpense,status,transactionGroupStatus';

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
export const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

interface OutflowRow {
  id: number;
  date: string;
  amount: string;
  company_name: string | null;
  type_id: number;
  status: number;
  group_status: number | null;
  [key: string]: unknown;
}

/** The report's lines (header first), produced chunk by chunk. */
export async function* outflowsCsvLines(db: Database, instanceId: string): AsyncGenerator<string> {
  yield `${OUTFLOWS_HEADER}\r\n`;
  let after = 0;
  for (;;) {
    const rows = await db.withInstance(instanceId, (tx) =>
      tx.query<OutflowRow>(
        `SELECT p.id, p.date, p.amount, c.name AS company_name, p.type_id, p.status, g.status AS group_status
           FROM payable p
           LEFT JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
           LEFT JOIN transaction_group g ON g.instance_id = p.instance_id AND g.id = p.transaction_group_id
          WHERE p.instance_id = $1 AND p.id > $2
          ORDER BY p.id LIMIT ${CHUNK}`,
        [instanceId, after],
      ),
    );
    if (!rows.length) return;
    let text = '';
    for (const row of rows) {
      text +=
        [
          String(row.id),
          row.date,
          row.amount,
          csvField(row.company_name ?? '-'),
          row.type_id === 1 ? 'true' : 'false',
          payableStatusName[row.status] ?? String(row.status),
          row.group_status === null ? '-' : (transactionGroupStatusName[row.group_status] ?? String(row.group_status)),
        ].join(',') + '\r\n';
    }
    yield text;
    after = rows[rows.length - 1]!.id;
    if (rows.length < CHUNK) return;
  }
}

/** Sends the report as a streamed download named ExportOutflows.csv. */
export function streamOutflowsCsv(db: Database, instanceId: string, reply: FastifyReply) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="ExportOutflows.csv"')
    .send(Readable.from(outflowsCsvLines(db, instanceId)));
}
