/**
 * The outflows report (spec §2.5, §9): ExportOutflows.csv with one line per payable, columns id,
 * date (YYYY-MM-DD), amount, company name or '-', isExpense, status name, transaction-group status
 * name or '-'. The bills are read through ONE cursor in one transaction, so they are one consistent
 * snapshot (a cursor keeps the snapshot of the moment it was opened; the companies' names are asked
 * of companies per chunk in the same transaction), fetched CHUNK rows at a time and handed
 * to the response with back-pressure, so 100,000 payables export in constant memory
 * (bench/outflows, docs/performance.md).
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Database } from '../../db/database.js';
import { csvField, csvSafeText } from '../../lib/csv.js';
import { companyNames } from '../companies/companies.service.js';
import { payableStatusName } from './payables.service.js';

const CHUNK = 2000;

export const transactionGroupStatusName: Record<number, string> = { 1: 'pending', 2: 'paid', 3: 'denied', 4: 'initiated' };

export const OUTFLOWS_HEADER = 'id,date,amount,company,isExpense,status,transactionGroupStatus';

/** A free-text cell: formula-safe, then RFC 4180 quoting (the spec's comma-separated dialect). */
const csvText = (value: string): string => csvField(csvSafeText(value));

interface OutflowRow {
  id: number;
  date: string;
  amount: string;
  company_uuid: string | null;
  type_id: number;
  status: number;
  group_status: number | null;
  [key: string]: unknown;
}

function outflowLine(row: OutflowRow, companies: ReadonlyMap<string, string>): string {
  const companyName = row.company_uuid === null ? undefined : companies.get(row.company_uuid);
  return (
    [
      String(row.id),
      row.date,
      row.amount,
      companyName === undefined ? '-' : csvText(companyName),
      row.type_id === 1 ? 'true' : 'false',
      payableStatusName[row.status] ?? String(row.status),
      row.group_status === null ? '-' : (transactionGroupStatusName[row.group_status] ?? String(row.group_status)),
    ].join(',') + '\r\n'
  );
}

/**
 * The report's text (header first), one chunk of CHUNK lines at a time. The rows come from one
 * cursor inside one transaction that stays open while the consumer reads; the next chunk is
 * fetched only when the consumer asks for it (back-pressure), and stopping early (e.g. the client
 * went away) rolls the transaction back. On PGlite (one connection) other requests wait for the
 * export to finish.
 */
export async function* outflowsCsvLines(db: Database, instanceId: string): AsyncGenerator<string> {
  // Producer (inside the transaction) and consumer (this generator) hand over one chunk at a time.
  let handOver: ((chunk: string | null) => void) | null = null;
  let askNext: (() => void) | null = null;
  let stopped = false;
  let failure: unknown = null;
  const nextChunk = () => new Promise<string | null>((resolve) => (handOver = resolve));
  let pending = nextChunk();
  const producer = db
    .withInstance(instanceId, async (tx) => {
      await tx.query(
        `DECLARE outflows NO SCROLL CURSOR FOR
         SELECT p.id, p.date, p.amount, p.company_uuid, p.type_id, p.status, g.status AS group_status
           FROM payable p
           LEFT JOIN transaction_group g ON g.instance_id = p.instance_id AND g.id = p.transaction_group_id
          WHERE p.instance_id = app_instance_id()
          ORDER BY p.id`,
      );
      for (;;) {
        const rows = await tx.query<OutflowRow>(`FETCH ${CHUNK} FROM outflows`);
        if (!rows.length || stopped) break;
        const asked = new Promise<void>((resolve) => (askNext = resolve));
        // Company names asked of companies once per chunk, in the same transaction.
        const companies = await companyNames(tx, instanceId, rows.flatMap((row) => (row.company_uuid === null ? [] : [row.company_uuid])));
        handOver!(rows.map((row) => outflowLine(row, companies)).join(''));
        await asked;
        if (stopped) break;
        if (rows.length < CHUNK) break;
      }
      await tx.query('CLOSE outflows');
      if (stopped) throw new Error('outflows export stopped by its reader');
    })
    .then(
      () => handOver?.(null),
      (error: unknown) => {
        failure = error;
        handOver?.(null);
      },
    );
  try {
    yield `${OUTFLOWS_HEADER}\r\n`;
    for (;;) {
      const chunk = await pending;
      if (chunk === null) break;
      pending = nextChunk();
      yield chunk;
      askNext!();
    }
    await producer;
    if (failure) throw failure;
  } finally {
    if (!stopped) {
      stopped = true;
      (askNext as (() => void) | null)?.();
      await producer;
    }
  }
}

/** Sends the report as a streamed download named ExportOutflows.csv. */
export function streamOutflowsCsv(db: Database, instanceId: string, reply: FastifyReply) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="ExportOutflows.csv"')
    .send(Readable.from(outflowsCsvLines(db, instanceId)));
}
