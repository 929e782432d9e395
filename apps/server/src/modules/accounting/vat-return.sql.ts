/**
 * The VAT return's reads over postings (issue 13 §3, decisions 019 and 020). Every coded posting
 * carries its code, role (base, tax, deduction), the rate applied and its base and tax signed for
 * the return (migration 0023), so the figures are sums over journal_line alone:
 * - agreed consideration: the coded postings dated in the period (`selectVatGroups`: the month sums
 *   of vat_period_balance, the days of cut months from the postings);
 * - received consideration: the same, less the coded postings of documents (invoices, bills,
 *   expenses) dated in the period, plus each document's coded postings times the share of it paid
 *   in the period, dated by the payment (`selectDocumentVatRows`, decision 020).
 */
import type { VatCodeKind, VatRole } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** Coded postings summed by code, role, rate and account (amounts: signed for the return, 2 decimals). */
export interface VatPostingGroup {
  code: string;
  kind: VatCodeKind;
  zifferBase: string | null;
  zifferTax: string | null;
  zifferDeduction: string | null;
  role: VatRole;
  /** The rate applied in percent ('8.100'). */
  percent: string;
  accountId: number;
  /** Σ vat_base: the base of a base line, the base a tax line was computed on. */
  base: string;
  /** Σ vat_amount: the tax of a tax or deduction line, the tax share of a base line. */
  amount: string;
}

/** One coded posting (a drill-down row), or its share paid in the period (received consideration). */
export interface VatPostingRow extends VatPostingGroup {
  lineId: number;
  entryId: number;
  /** The entry's ledger date. */
  dateLedger: string;
  /** The date the posting counts in the return: its ledger date, or the payment's (received). */
  countedOn: string;
  description: string;
  lineDescription: string | null;
  accountNumber: string;
  accountName: string;
  /** Received consideration: the payment entry and the share of the document it paid (0–1). */
  payment: { entryId: number; share: string } | null;
}

type GroupRecord = {
  code: string;
  kind: VatCodeKind;
  ziffer_base: string | null;
  ziffer_tax: string | null;
  ziffer_deduction: string | null;
  role: VatRole;
  percent: string;
  account_id: number;
  base: string;
  amount: string;
};
type RowRecord = GroupRecord & {
  line_id: number;
  entry_id: number;
  date_ledger: string;
  counted_on: string;
  description: string;
  line_description: string | null;
  account_number: string;
  account_name: string;
  payment_entry_id: number | null;
  share: string | null;
};

const toGroup = (row: GroupRecord): VatPostingGroup => ({
  code: row.code,
  kind: row.kind,
  zifferBase: row.ziffer_base,
  zifferTax: row.ziffer_tax,
  zifferDeduction: row.ziffer_deduction,
  role: row.role,
  percent: row.percent,
  accountId: row.account_id,
  base: row.base,
  amount: row.amount,
});

const toRow = (row: RowRecord): VatPostingRow => ({
  ...toGroup(row),
  lineId: row.line_id,
  entryId: row.entry_id,
  dateLedger: row.date_ledger,
  countedOn: row.counted_on,
  description: row.description,
  lineDescription: row.line_description,
  accountNumber: row.account_number,
  accountName: row.account_name,
  payment: row.payment_entry_id === null ? null : { entryId: row.payment_entry_id, share: row.share! },
});

/**
 * Coded postings dated dateFrom..dateTo, summed by code, role, rate and account: whole months from
 * the month sums the triggers keep (vat_period_balance, migration 0024), the days of a month the
 * range cuts from the postings (the partial index journal_line_vat_idx), the codes joined last.
 */
export async function selectVatGroups(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<VatPostingGroup[]> {
  const { months, days } = splitByMonths(dateFrom, dateTo);
  const params: unknown[] = [instanceId];
  const param = (value: unknown) => `$${params.push(value)}`;
  const parts = [
    ...(months
      ? [`SELECT vat_code, vat_role, vat_percent, account_id, base, amount FROM vat_period_balance
           WHERE instance_id = $1 AND period >= ${param(months.from)}::date AND period < ${param(months.to)}::date AND lines <> 0`]
      : []),
    ...days.map(
      (range) => `SELECT vat_code, vat_role, vat_percent, account_id, vat_base AS base, vat_amount AS amount FROM journal_line
                   WHERE instance_id = $1 AND date_ledger BETWEEN ${param(range.from)}::date AND ${param(range.to)}::date AND vat_code IS NOT NULL`,
    ),
  ];
  const rows = await tx.query<GroupRecord>(
    `SELECT g.vat_code AS code, c.kind, c.ziffer_base, c.ziffer_tax, c.ziffer_deduction, g.vat_role AS role, g.vat_percent::text AS percent,
            g.account_id, g.base::text AS base, g.amount::text AS amount
       FROM (SELECT p.vat_code, p.vat_role, p.vat_percent, p.account_id, sum(p.base) AS base, sum(p.amount) AS amount
               FROM (${parts.join(' UNION ALL ')}) p
              GROUP BY p.vat_code, p.vat_role, p.vat_percent, p.account_id) g
       JOIN vat_code c ON c.instance_id = $1 AND c.code = g.vat_code`,
    params,
  );
  return rows.map(toGroup);
}

const ROW_COLUMNS = `l.vat_code AS code, c.kind, c.ziffer_base, c.ziffer_tax, c.ziffer_deduction, l.vat_role AS role, l.vat_percent::text AS percent,
  l.account_id, l.id AS line_id, l.entry_id, l.date_ledger::text AS date_ledger, e.description, l.description AS line_description,
  a.number AS account_number, a.name AS account_name`;

/** The coded postings dated dateFrom..dateTo (drill-down of agreed consideration), by date and entry. */
export async function selectVatRows(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<VatPostingRow[]> {
  const rows = await tx.query<RowRecord>(
    `SELECT ${ROW_COLUMNS}, l.vat_base::text AS base, l.vat_amount::text AS amount, l.date_ledger::text AS counted_on,
            NULL::int AS payment_entry_id, NULL::text AS share
       FROM journal_line l
       JOIN vat_code c ON c.instance_id = l.instance_id AND c.code = l.vat_code
       JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
       JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id
      WHERE l.instance_id = $1 AND l.date_ledger BETWEEN $2::date AND $3::date AND l.vat_code IS NOT NULL
      ORDER BY l.date_ledger, l.entry_id, l.id`,
    [instanceId, dateFrom, dateTo],
  );
  return rows.map(toRow);
}

/**
 * The document part of received consideration (decision 020). A document is an invoice (its
 * entries have source 'invoice' and its uuid), or a bill or expense (source 'bill' or 'payment' and
 * its uuid; a reversal has source 'bill' and the reversed entry's id). Its entries with coded lines
 * book it (or reverse it); its entries without are payments. Its *document account* is the account
 * its booking and its payments share (receivables 1100, payables 2000, staff 2250); the share a
 * payment pays is the payment's movement on it over the booking's. In the period:
 * - `booked`: coded postings of document entries dated in the period (they count when paid, not
 *   when booked, so the caller takes them out of the period's postings);
 * - `paid`: each coded posting of a document with a payment in the period, times the share paid by
 *   that payment, dated on the payment. Shares are cumulative per document and rounded to the cent
 *   as round(x × paid so far) − round(x × paid before), so a document paid in full counts exactly
 *   its booked VAT, however many part payments; shares are held to 0..1 (an overpayment adds
 *   nothing). A payment dated before its document's booking (an advance) counts on its own date
 *   with the share of the booking made later.
 */
export async function selectDocumentVatRows(
  tx: Tx,
  instanceId: string,
  dateFrom: string,
  dateTo: string,
): Promise<{ booked: VatPostingRow[]; paid: VatPostingRow[] }> {
  const documents = `
    WITH keyed AS (
      -- Document entries with their document key (kind i/b, reference). Also those after the period:
      -- a payment received before its invoice is booked (an advance) counts when it is received.
      SELECT e.id, e.date_ledger, e.description,
             CASE WHEN e.source = 'invoice' THEN 'i' WHEN e.source = 'bill' AND e.source_ref ~ '^[0-9]{1,9}$' THEN r.kind ELSE 'b' END AS kind,
             CASE WHEN e.source = 'bill' AND e.source_ref ~ '^[0-9]{1,9}$' THEN r.ref ELSE e.source_ref END AS ref
        FROM journal_entry e
        LEFT JOIN LATERAL (
          SELECT CASE WHEN o.source = 'invoice' THEN 'i' ELSE 'b' END AS kind, o.source_ref AS ref
            FROM journal_entry o
           WHERE o.instance_id = e.instance_id AND e.source = 'bill' AND e.source_ref ~ '^[0-9]{1,9}$' AND o.id = e.source_ref::int
        ) r ON true
       WHERE e.instance_id = $1 AND e.source IN ('invoice', 'bill', 'payment') AND e.source_ref IS NOT NULL
    ),
    entries AS (
      SELECT k.*, EXISTS (SELECT 1 FROM journal_line v WHERE v.instance_id = $1 AND v.entry_id = k.id AND v.vat_code IS NOT NULL) AS has_vat
        FROM keyed k WHERE k.ref IS NOT NULL
    )`;
  const booked = await tx.query<RowRecord>(
    `${documents}
     SELECT ${ROW_COLUMNS}, l.vat_base::text AS base, l.vat_amount::text AS amount, l.date_ledger::text AS counted_on,
            NULL::int AS payment_entry_id, NULL::text AS share
       FROM entries en
       JOIN journal_entry e ON e.instance_id = $1 AND e.id = en.id
       JOIN journal_line l ON l.instance_id = $1 AND l.entry_id = en.id AND l.vat_code IS NOT NULL
       JOIN vat_code c ON c.instance_id = $1 AND c.code = l.vat_code
       JOIN ledger_account a ON a.instance_id = $1 AND a.id = l.account_id
      WHERE en.has_vat AND en.date_ledger BETWEEN $2::date AND $3::date
      ORDER BY l.date_ledger, l.entry_id, l.id`,
    [instanceId, dateFrom, dateTo],
  );
  const paid = await tx.query<RowRecord>(
    `${documents},
     doc_lines AS (
       SELECT en.kind, en.ref, en.id AS entry_id, en.date_ledger, en.has_vat, l.account_id, l.direction * l.amount AS signed
         FROM entries en JOIN journal_line l ON l.instance_id = $1 AND l.entry_id = en.id AND l.vat_code IS NULL
     ),
     doc_accounts AS (
       -- Accounts that a document's booking (uncoded lines) and its payments share.
       SELECT b.kind, b.ref, b.account_id FROM doc_lines b
        WHERE b.has_vat AND EXISTS (SELECT 1 FROM doc_lines p WHERE p.kind = b.kind AND p.ref = b.ref AND NOT p.has_vat AND p.account_id = b.account_id)
        GROUP BY b.kind, b.ref, b.account_id
     ),
     booked_total AS (
       SELECT d.kind, d.ref, sum(d.signed) AS total FROM doc_lines d JOIN doc_accounts x USING (kind, ref, account_id)
        WHERE d.has_vat GROUP BY d.kind, d.ref HAVING sum(d.signed) <> 0
     ),
     payments AS (
       SELECT d.kind, d.ref, d.entry_id, d.date_ledger, -sum(d.signed) AS paid FROM doc_lines d JOIN doc_accounts x USING (kind, ref, account_id)
        WHERE NOT d.has_vat GROUP BY d.kind, d.ref, d.entry_id, d.date_ledger
     ),
     cumulative AS (
       SELECT p.kind, p.ref, p.entry_id, p.date_ledger, t.total,
              sum(p.paid) OVER (PARTITION BY p.kind, p.ref ORDER BY p.date_ledger, p.entry_id) AS paid_to,
              coalesce(sum(p.paid) OVER (PARTITION BY p.kind, p.ref ORDER BY p.date_ledger, p.entry_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS paid_before
         FROM payments p JOIN booked_total t USING (kind, ref)
     ),
     shares AS (
       -- Shares of the document paid so far, held to 0..1: an overpayment counts no more VAT than
       -- the document carries (its refund then takes nothing back that was not counted).
       SELECT c.kind, c.ref, c.entry_id, c.date_ledger,
              least(greatest(c.paid_to / c.total, 0), 1) AS paid_to,
              least(greatest(c.paid_before / c.total, 0), 1) AS paid_before
         FROM cumulative c
     )
     SELECT ${ROW_COLUMNS},
            (round(l.vat_base * s.paid_to, 2) - round(l.vat_base * s.paid_before, 2))::text AS base,
            (round(l.vat_amount * s.paid_to, 2) - round(l.vat_amount * s.paid_before, 2))::text AS amount,
            s.date_ledger::text AS counted_on, s.entry_id AS payment_entry_id, round(s.paid_to - s.paid_before, 6)::text AS share
       FROM shares s
       JOIN entries en ON en.kind = s.kind AND en.ref = s.ref AND en.has_vat
       JOIN journal_entry e ON e.instance_id = $1 AND e.id = en.id
       JOIN journal_line l ON l.instance_id = $1 AND l.entry_id = en.id AND l.vat_code IS NOT NULL
       JOIN vat_code c ON c.instance_id = $1 AND c.code = l.vat_code
       JOIN ledger_account a ON a.instance_id = $1 AND a.id = l.account_id
      WHERE s.date_ledger BETWEEN $2::date AND $3::date
      ORDER BY s.date_ledger, s.entry_id, l.entry_id, l.id`,
    [instanceId, dateFrom, dateTo],
  );
  return { booked: booked.map(toRow), paid: paid.map(toRow) };
}

/** A VAT account's movement in the period: credit minus debit, without the VAT settlement entries (source 'vat'). */
export interface VatAccountMovement {
  accountId: number;
  number: string;
  name: string;
  /** Credit minus debit, 2 decimals. */
  movement: string;
}

/**
 * Credit minus debit of `accountIds` dated dateFrom..dateTo, leaving out the settlement entries of
 * filed returns (vat_return.settlement_entry_id), which empty the VAT accounts. Whole
 * months come from the month balances the triggers keep (account_period_balance), only the days
 * of a month cut by the range from the postings: a year is 12 rows per account, not every posting.
 */
export async function selectVatAccountMovements(tx: Tx, instanceId: string, accountIds: readonly number[], dateFrom: string, dateTo: string): Promise<VatAccountMovement[]> {
  if (accountIds.length === 0) return [];
  const { months, days } = splitByMonths(dateFrom, dateTo);
  const params: unknown[] = [instanceId, [...accountIds], dateFrom, dateTo];
  const param = (value: unknown) => `$${params.push(value)}`;
  // Only the parts the range has: an empty part would still cost a (parallel) scan's start-up.
  const parts = [
    ...(months
      ? [`coalesce((SELECT sum(b.credit - b.debit) FROM account_period_balance b
                     WHERE b.instance_id = $1 AND b.account_id = a.id AND b.period >= ${param(months.from)}::date AND b.period < ${param(months.to)}::date), 0)`]
      : []),
    ...days.map(
      (range) => `coalesce((SELECT sum(-l.direction * l.amount) FROM journal_line l
                  WHERE l.instance_id = $1 AND l.account_id = a.id AND l.date_ledger BETWEEN ${param(range.from)}::date AND ${param(range.to)}::date), 0)`,
    ),
  ];
  const rows = await tx.query<{ account_id: number; number: string; name: string; movement: string }>(
    `WITH settled AS MATERIALIZED (
       -- The settlement entries of filed returns (vat_return.settlement_entry_id) dated in the period, by their lines.
       SELECT l.account_id, sum(-l.direction * l.amount) AS amount
         FROM vat_return r JOIN journal_line l ON l.instance_id = r.instance_id AND l.entry_id = r.settlement_entry_id
        WHERE r.instance_id = $1 AND r.settlement_entry_id IS NOT NULL AND l.date_ledger BETWEEN $3::date AND $4::date
        GROUP BY l.account_id
     )
     SELECT a.id AS account_id, a.number, a.name,
            (${parts.join(' + ')} - coalesce((SELECT s.amount FROM settled s WHERE s.account_id = a.id), 0))::numeric(20, 2)::text AS movement
       FROM ledger_account a
      WHERE a.instance_id = $1 AND a.id = ANY ($2::int[])
      ORDER BY a.number`,
    params,
  );
  return rows.map((row) => ({ accountId: row.account_id, number: row.number, name: row.name, movement: row.movement }));
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const previousDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const nextMonthStart = (date: string) => {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
};

/**
 * dateFrom..dateTo as its whole months (`months`: first day inclusive to first day exclusive, for
 * the month balances) and the days outside them (at most two inclusive ranges, for the postings).
 */
export function splitByMonths(dateFrom: string, dateTo: string): { months: { from: string; to: string } | null; days: { from: string; to: string }[] } {
  const fullFrom = dateFrom.endsWith('-01') ? dateFrom : nextMonthStart(dateFrom);
  const after = nextDay(dateTo);
  const fullTo = after.endsWith('-01') ? after : `${dateTo.slice(0, 7)}-01`;
  if (fullFrom >= fullTo) return { months: null, days: [{ from: dateFrom, to: dateTo }] };
  const days: { from: string; to: string }[] = [];
  if (dateFrom < fullFrom) days.push({ from: dateFrom, to: previousDay(fullFrom) });
  if (fullTo <= dateTo) days.push({ from: fullTo, to: dateTo });
  return { months: { from: fullFrom, to: fullTo }, days };
}

/** A posting on a VAT account without a VAT code (it moves the account but not the return). */
export interface UncodedVatPosting {
  entryId: number;
  dateLedger: string;
  description: string;
  accountId: number;
  /** Credit minus debit. */
  amount: string;
}

/** Up to `limit` uncoded postings on `accountIds` in the period (settlement entries left out), by date. */
export async function selectUncodedVatPostings(tx: Tx, instanceId: string, accountIds: readonly number[], dateFrom: string, dateTo: string, limit = 200): Promise<UncodedVatPosting[]> {
  if (accountIds.length === 0) return [];
  const rows = await tx.query<{ entry_id: number; date_ledger: string; description: string; account_id: number; amount: string }>(
    `SELECT l.entry_id, l.date_ledger::text AS date_ledger, e.description, l.account_id, (-l.direction * l.amount)::text AS amount
       FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
      WHERE l.instance_id = $1 AND l.account_id = ANY ($2::int[]) AND l.date_ledger BETWEEN $3::date AND $4::date
        AND l.vat_code IS NULL AND e.source <> 'vat'
      ORDER BY l.date_ledger, l.entry_id, l.id LIMIT $5`,
    [instanceId, [...accountIds], dateFrom, dateTo, limit],
  );
  return rows.map((row) => ({ entryId: row.entry_id, dateLedger: row.date_ledger, description: row.description, accountId: row.account_id, amount: row.amount }));
}

/** Ledger account ids of the VAT accounts the instance's codes name (tax and deduction accounts) that exist. */
export async function selectVatCodeAccountIds(tx: Tx, instanceId: string): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `SELECT DISTINCT a.id FROM vat_code c JOIN ledger_account a ON a.instance_id = c.instance_id AND a.number IN (c.account_number, c.deduction_account_number)
      WHERE c.instance_id = $1`,
    [instanceId],
  );
  return rows.map((row) => row.id);
}
