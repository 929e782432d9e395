/**
 * What the accounting checks (issue 12 §2, accounting/checks.service.ts `CheckSources`) ask of the
 * imported bank files: each ledger account's last statement balance at a date, and the bank lines
 * left unreconciled. Assembled into the accounting routes' port by wiring/wiring.ts.
 */
import { toFixedAmount, type MessageLanguage } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { serverText } from '../../http/server-texts.js';
import type { BankStatement, UnreconciledBankLine } from '../accounting/accounting.service.js';

/**
 * Per ledger account, the last imported camt.053 with a closing booked balance (CLBD) dated on or
 * before `date` — the latest closing date, then the latest import — as the reconciliation page
 * compares it (reconcile.service.ts).
 */
export async function lastStatementsAt(tx: Tx, instanceId: string, date: string): Promise<BankStatement[]> {
  const rows = await tx.query<{ account_id: number; closing_date: string; closing_balance: string; message_id: string }>(
    `SELECT DISTINCT ON (account_id) account_id, closing_date::text AS closing_date, closing_balance::text AS closing_balance, message_id
       FROM bank_file
      WHERE instance_id = $1 AND account_id IS NOT NULL AND closing_balance IS NOT NULL AND closing_date IS NOT NULL AND closing_date <= $2
      ORDER BY account_id, closing_date DESC, id DESC`,
    [instanceId, date],
  );
  return rows.map((row) => ({ accountId: row.account_id, date: row.closing_date, closingBalance: toFixedAmount(row.closing_balance), reference: row.message_id }));
}

/**
 * Bank lines booked before `bookedBefore` that are neither matched to an invoice or bill nor booked
 * (what the reconciliation page lists as unmatched), today's state: the oldest `limit`, and how many
 * there are; a line without text is labelled in `language`.
 */
export async function unreconciledBankLines(
  tx: Tx,
  instanceId: string,
  bookedBefore: string,
  limit: number,
  language: MessageLanguage = 'en',
): Promise<{ lines: UnreconciledBankLine[]; count: number }> {
  const rows = await tx.query<{
    id: number;
    account_id: number;
    booking_date: string;
    direction: number;
    amount: string;
    currency: string;
    counterparty: string | null;
    description: string | null;
    reference: string | null;
    count: string;
  }>(
    `SELECT id, account_id, booking_date::text AS booking_date, direction, amount::text AS amount, currency, counterparty, description, reference,
            count(*) OVER () AS count
       FROM bank_transaction
      WHERE instance_id = $1 AND booking_date < $2 AND match_id IS NULL AND ignored_reason IS NULL
      ORDER BY booking_date, id LIMIT $3`,
    [instanceId, bookedBefore, limit],
  );
  return {
    lines: rows.map((row) => ({
      accountId: row.account_id,
      bookingDate: row.booking_date,
      label: [row.counterparty, row.description ?? row.reference].filter(Boolean).join(', ') || serverText(language, 'bank line {{id}}', { id: row.id }),
      amount: toFixedAmount(Number(row.direction) === -1 ? `-${row.amount}` : row.amount),
      currency: row.currency,
    })),
    count: Number(rows[0]?.count ?? 0),
  };
}
