/**
 * Bank reconciliation against the books (issue 14 §1, docs/decisions/022). A statement line
 * (camt.052/053) is reconciled to the postings on its bank ledger account that it stands for:
 * postings already in the books (a manual entry, a document payment, a payment run settled by
 * camt.054) — booking nothing — or the posting it books itself (a document it pays, its charges,
 * a chosen counter account). `bank_match_posting` holds the claimed postings; its primary key makes
 * a posting reconciled at most once. A camt.054 line is a notification: it may book a document's
 * payment, but claims no posting, so the statement line of the same money finds it.
 *
 * Every change of one account's reconciliation takes that account's advisory lock first
 * (`lockReconciliation`), so parallel imports and manual matches claim each posting once.
 */
import { Currency, toMoney } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { accountPostings, type AccountPosting } from '../accounting/accounting.service.js';

/** Days a posting may lie before or after the bank's booking date to match by amount (issue 14 §1). */
export const MATCH_WINDOW_DAYS = 5;
/** Days around a statement searched for postings that an end-to-end id names (payments settle early or late). */
export const REFERENCE_WINDOW_DAYS = 40;
/** The end-to-end id banks write when the payer gave none (ISO 20022). */
export const NOT_PROVIDED = 'NOTPROVIDED';

const DAY = 86_400_000;
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const daysApart = (a: string, b: string) => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / DAY;

/** Serialises every change of bank ledger account `accountId`'s reconciliation (transaction-scoped). */
export async function lockReconciliation(tx: Tx, instanceId: string, accountId: number): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1::text), $2::integer)`, [`bank-reconciliation:${instanceId}`, accountId]);
}

/** A bank line as the matcher sees it. */
export interface LineToMatch {
  id: number;
  bookingDate: string;
  direction: 1 | -1;
  amount: string;
  currency: string;
  endToEndId: string | null;
}

/** A reconciliation to record: lines and the postings (by journal line, or all lines of an entry on the account) they stand for. */
export interface Claim {
  lineIds: number[];
  postings: { lineId?: number; entryId: number; booked: boolean }[];
  /** The entry the line booked (kept on the line as entry_id), if any. */
  entryId?: number | null;
  /** The document the line paid or reopened, kept on the line (matched_invoice_uuid / matched_payable_id). */
  invoiceUuid?: string | null;
  payableId?: number | null;
}

/**
 * The postings of one bank ledger account not yet reconciled, for one import or manual match: read
 * once (accounting's `accountPostings`), minus the claimed ones (our table), taken out as lines claim them.
 */
export class OpenPostings {
  private postings: AccountPosting[] = [];
  private taken = new Set<number>();
  /** Cents of each posting's compared amount (integer arithmetic: 10,000 lines × thousands of postings). */
  private cents = new Map<number, bigint>();
  /** Postings by `direction|cents`, by `direction|date` and by `direction|entry` (entries of 2+ postings). */
  private byAmount = new Map<string, AccountPosting[]>();
  private byDate = new Map<string, AccountPosting[]>();
  private byEntry = new Map<string, AccountPosting[]>();
  private bySourceRef = new Map<string, AccountPosting[]>();
  /**
   * The untaken cents of each `byDate` and `byEntry` group, kept as postings are taken, so a batch
   * is looked for only where the sum fits (issue 14 §4: 10,000 lines against thousands of postings).
   */
  private openSum = new Map<string, bigint>();
  /** `direction|cents` of an entry group's untaken sum → its keys: the entries a batch line can be. */
  private entriesBySum = new Map<string, Set<string>>();

  private constructor(
    readonly accountId: number,
    /** The account's currency when it is not the books': lines then compare the postings' original amounts. */
    private readonly foreignCurrencyId: number | null,
  ) {}

  static async load(tx: Tx, instanceId: string, accountId: number, dateFrom: string, dateTo: string, foreignCurrency: string | null): Promise<OpenPostings> {
    const open = new OpenPostings(accountId, foreignCurrency ? (Currency[foreignCurrency as keyof typeof Currency] ?? null) : null);
    const all = await accountPostings(tx, instanceId, accountId, { dateFrom, dateTo });
    const claimed = await claimedLines(tx, instanceId, all.map((p) => p.lineId));
    open.postings = all.filter((p) => !claimed.has(p.lineId));
    const push = (map: Map<string, AccountPosting[]>, key: string, posting: AccountPosting) => {
      const list = map.get(key);
      if (list) list.push(posting);
      else map.set(key, [posting]);
    };
    for (const posting of open.postings) {
      const cents = toCents(open.amountOf(posting));
      open.cents.set(posting.lineId, cents);
      push(open.byAmount, `${posting.direction}|${cents}`, posting);
      push(open.byDate, `${posting.direction}|${posting.dateLedger}`, posting);
      push(open.byEntry, `${posting.direction}|${posting.entryId}`, posting);
      if (posting.source === 'payment' && posting.sourceRef) push(open.bySourceRef, posting.sourceRef, posting);
    }
    for (const [key, list] of open.byEntry) if (list.length < 2) open.byEntry.delete(key);
    for (const [key, list] of open.byDate) open.openSum.set(`date|${key}`, open.sumOf(list));
    for (const [key, list] of open.byEntry) {
      const sum = open.sumOf(list);
      open.openSum.set(`entry|${key}`, sum);
      open.indexEntry(key, sum, 1);
    }
    return open;
  }

  private amountOf(posting: AccountPosting): string {
    return this.foreignCurrencyId !== null && posting.currencyId === this.foreignCurrencyId ? posting.originalAmount : posting.amount;
  }

  private fits(line: LineToMatch, posting: AccountPosting): boolean {
    return !this.taken.has(posting.lineId) && posting.direction === line.direction;
  }

  take(postings: AccountPosting[]): AccountPosting[] {
    for (const posting of postings) {
      if (this.taken.has(posting.lineId)) continue;
      this.taken.add(posting.lineId);
      const cents = this.cents.get(posting.lineId)!;
      const dateKey = `date|${posting.direction}|${posting.dateLedger}`;
      this.openSum.set(dateKey, this.openSum.get(dateKey)! - cents);
      const entry = `${posting.direction}|${posting.entryId}`;
      const entrySum = this.openSum.get(`entry|${entry}`);
      if (entrySum !== undefined) {
        this.indexEntry(entry, entrySum, -1);
        this.openSum.set(`entry|${entry}`, entrySum - cents);
        this.indexEntry(entry, entrySum - cents, 1);
      }
    }
    return postings;
  }

  private indexEntry(entry: string, sum: bigint, change: 1 | -1): void {
    const key = `${entry.split('|')[0]}|${sum}`;
    const set = this.entriesBySum.get(key);
    if (change === 1) {
      if (set) set.add(entry);
      else this.entriesBySum.set(key, new Set([entry]));
    } else set?.delete(entry);
  }

  private sumOf(postings: readonly AccountPosting[]): bigint {
    return postings.reduce((sum, p) => sum + this.cents.get(p.lineId)!, 0n);
  }

  /** The open payment postings of the bill whose end-to-end id (uuid without hyphens, our pain.001) the line names. */
  byEndToEndId(line: LineToMatch): AccountPosting[] {
    const e2e = line.endToEndId?.toLowerCase();
    if (!e2e || e2e === NOT_PROVIDED.toLowerCase() || !/^[0-9a-f]{32}$/.test(e2e)) return [];
    const uuid = `${e2e.slice(0, 8)}-${e2e.slice(8, 12)}-${e2e.slice(12, 16)}-${e2e.slice(16, 20)}-${e2e.slice(20)}`;
    const found = (this.bySourceRef.get(uuid) ?? []).filter((p) => this.fits(line, p));
    return found.length && this.sumOf(found) === toCents(line.amount) ? found : [];
  }

  /** The one open posting of the line's amount and direction within ±5 days; empty when none or several. */
  byAmountAndDate(line: LineToMatch): AccountPosting[] {
    const found = (this.byAmount.get(`${line.direction}|${toCents(line.amount)}`) ?? []).filter(
      (p) => this.fits(line, p) && daysApart(p.dateLedger, line.bookingDate) <= MATCH_WINDOW_DAYS,
    );
    return found.length === 1 ? found : [];
  }

  /**
   * One-to-many: the open postings of one date within ±5 days, or of one journal entry, that
   * together make the line's amount (a batch debit against the bill payments of one run), when
   * exactly one such group exists.
   */
  byBatch(line: LineToMatch): AccountPosting[] {
    const amount = toCents(line.amount);
    const inWindow = (p: AccountPosting) => this.fits(line, p) && daysApart(p.dateLedger, line.bookingDate) <= MATCH_WINDOW_DAYS;
    const groups: AccountPosting[][] = [];
    // Only groups whose untaken sum is the line's amount are read (the running sums of `take`).
    for (let offset = -MATCH_WINDOW_DAYS; offset <= MATCH_WINDOW_DAYS; offset += 1) {
      const key = `${line.direction}|${addDays(line.bookingDate, offset)}`;
      if (this.openSum.get(`date|${key}`) !== amount) continue;
      const group = (this.byDate.get(key) ?? []).filter(inWindow);
      if (group.length >= 2) groups.push(group);
    }
    for (const key of this.entriesBySum.get(`${line.direction}|${amount}`) ?? []) {
      const group = this.byEntry.get(key)!.filter(inWindow);
      if (group.length >= 2) groups.push(group);
    }
    const fitting = new Map<string, AccountPosting[]>();
    for (const group of groups) if (this.sumOf(group) === amount) fitting.set(group.map((p) => p.lineId).join(','), group);
    return fitting.size === 1 ? [...fitting.values()][0]! : [];
  }
}

/** An amount with at most 2 decimals as integer cents (exact: no floating point). */
function toCents(amount: string): bigint {
  return BigInt(toMoney(amount).times(100).toFixed(0));
}

/** The journal lines among `lineIds` that a reconciliation holds already. */
export async function claimedLines(tx: Tx, instanceId: string, lineIds: readonly number[]): Promise<Set<number>> {
  if (!lineIds.length) return new Set();
  const rows = await tx.query<{ journal_line_id: number }>(
    'SELECT journal_line_id FROM bank_match_posting WHERE instance_id = $1 AND journal_line_id = ANY ($2::integer[])',
    [instanceId, [...lineIds]],
  );
  return new Set(rows.map((row) => row.journal_line_id));
}

/**
 * Records reconciliations set-based: allocates one match id per claim, claims the postings (an entry
 * given without its journal line: all its lines on the account) and marks the lines. A posting
 * claimed meanwhile fails the primary key (the caller holds the account's lock, so only a bug can).
 * Answers the match id of each claim, in order.
 */
export async function recordClaims(tx: Tx, instanceId: string, accountId: number, claims: readonly Claim[]): Promise<number[]> {
  if (!claims.length) return [];
  const entryIds = [...new Set(claims.flatMap((claim) => claim.postings.filter((p) => p.lineId === undefined).map((p) => p.entryId)))];
  const byEntry = new Map<number, number[]>();
  for (const posting of await accountPostings(tx, instanceId, accountId, { entryIds })) byEntry.set(posting.entryId, [...(byEntry.get(posting.entryId) ?? []), posting.lineId]);
  const [{ last }] = (await tx.query<{ last: number }>(`SELECT next_ids($1, 'bank_match', $2) AS last`, [instanceId, claims.length])) as [{ last: number }];
  const matchIds = claims.map((_, index) => last - claims.length + 1 + index);
  const postingRows: [number, number, number, boolean][] = [];
  const lineRows: [number, number, string | null, number | null, number | null][] = [];
  claims.forEach((claim, index) => {
    const matchId = matchIds[index]!;
    for (const posting of claim.postings) {
      for (const lineId of posting.lineId !== undefined ? [posting.lineId] : (byEntry.get(posting.entryId) ?? [])) postingRows.push([lineId, matchId, posting.entryId, posting.booked]);
    }
    const booked = claim.entryId ?? claim.postings.find((p) => p.booked)?.entryId ?? null;
    for (const lineId of claim.lineIds) lineRows.push([lineId, matchId, claim.invoiceUuid ?? null, claim.payableId ?? null, booked]);
  });
  if (postingRows.length) {
    await tx.query(
      `INSERT INTO bank_match_posting (instance_id, journal_line_id, match_id, entry_id, booked)
       SELECT $1, * FROM unnest($2::integer[], $3::integer[], $4::integer[], $5::boolean[])`,
      [instanceId, postingRows.map((r) => r[0]), postingRows.map((r) => r[1]), postingRows.map((r) => r[2]), postingRows.map((r) => r[3])],
    );
  }
  await tx.query(
    `UPDATE bank_transaction t SET match_id = u.match_id, unmatched_reason = NULL,
            matched_invoice_uuid = COALESCE(u.invoice_uuid, t.matched_invoice_uuid), matched_payable_id = COALESCE(u.payable_id, t.matched_payable_id),
            entry_id = COALESCE(u.entry_id, t.entry_id)
       FROM unnest($2::integer[], $3::integer[], $4::uuid[], $5::integer[], $6::integer[]) AS u(id, match_id, invoice_uuid, payable_id, entry_id)
      WHERE t.instance_id = $1 AND t.id = u.id`,
    [instanceId, lineRows.map((r) => r[0]), lineRows.map((r) => r[1]), lineRows.map((r) => r[2]), lineRows.map((r) => r[3]), lineRows.map((r) => r[4])],
  );
  return matchIds;
}
