/**
 * Journal entries: posting, replacing, deleting, merging and listing. Every write checks in
 * TypeScript what the database triggers of migration 0001 enforce again at commit (balance, lock
 * date), so the user gets a 400/409 naming the field, and nothing is written on error.
 */
import {
  amountMessage,
  Currency,
  currencyCodeById,
  isAmountString,
  Money,
  toFixedAmount,
  toMoney,
  validationMessages,
  vatNormalDirection,
  type CurrencyCode,
  type VatEntry,
  type VatRole,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { AccountingError, invalidField, notFoundError, periodLocked } from './accounting.errors.js';
import { selectLockDate, selectPostingContext, type PostingContext } from './accounting.sql.js';
import { accountBalanceAt } from './balance.service.js';
import { dayBefore } from './balance.sql.js';
import {
  allocateIds,
  deleteJournalEntryRow,
  deleteJournalLinesOfEntry,
  insertJournalEntries,
  insertJournalEntryWithLines,
  insertJournalLines,
  moveJournalLines,
  selectAccountPostings,
  selectRunningSums,
  selectSameDaySumBefore,
  selectJournalEntries,
  selectJournalEntryHead,
  selectJournalEntryPage,
  selectJournalLine,
  trimDecimal,
  updateJournalEntryHead,
  updateJournalLine,
  type JournalEntry,
  type JournalEntryFilter,
  type JournalEntryHead,
  type JournalLine,
  type JournalLineColumns,
  type PostingKey,
  type PostingVat,
} from './journal-entry.sql.js';
import { splitCodedLines } from './vat-split.js';
import { selectLedgerAccountHeads } from './ledger-account.sql.js';
import { recordAudit, type JournalAuditEvent } from '../audit/audit.service.js';
import { documentOfEntry, isDocumentSource, withDocumentPostingWrite, type DocumentEntry, type DocumentResolvers, type PostingDocument } from './document-posting.js';

export type { JournalEntry, JournalLine, PostingVat } from './journal-entry.sql.js';

/** One posting to write. */
export interface PostingInput {
  accountId: number;
  /**
   * Absolute amount in the instance currency, at most 2 decimals. May be omitted when
   * `originalAmount` and `exchangeRate` are given: it is then round2(originalAmount × exchangeRate).
   */
  amount?: string | Money | null | undefined;
  /** +1 debit, -1 credit. */
  direction: 1 | -1;
  /** Currency of `originalAmount`; defaults to the instance currency. */
  currency?: CurrencyCode | null | undefined;
  /** Absolute amount in `currency`, at most 10 decimals. */
  originalAmount?: string | Money | null | undefined;
  /** Instance-currency units per unit of `currency`, > 0, at most 10 decimals. */
  exchangeRate?: string | Money | null | undefined;
  description?: string | null | undefined;
  /**
   * The posting's VAT (decision 019), for callers that compute it themselves (invoices, bills, the
   * split of coded lines): the code, the posting's role and the rate applied in percent. The
   * posting's own figure is its amount (a base line's base, a tax line's tax); the other one,
   * positive, in the posting's currency: `tax` for a base line (the tax computed on it, 0.00 for a
   * zero-rate code), `base` for a tax or deduction line. Signs for the return follow from the
   * code's kind and the direction.
   */
  vat?: PostingVatInput | null | undefined;
}

export interface PostingVatInput {
  code: string;
  role: VatRole;
  percent: string;
  /** Tax or deduction line: the base the tax was computed on. */
  base?: string | undefined;
  /** Base line: the tax computed on it. */
  tax?: string | undefined;
}

/**
 * The VAT of a posted line as a posting's input, to post it again (a reversal keeps the code and the
 * rate of the supply it reverses; the opposite direction makes its figures negative).
 */
export function postingVatInput(line: Pick<JournalLine, 'vat'>): PostingVatInput | null {
  const vat = line.vat;
  if (!vat) return null;
  const positive = (value: string) => value.replace(/^-/, '');
  return vat.role === 'base'
    ? { code: vat.code, role: vat.role, percent: vat.percent, tax: positive(vat.amount) }
    : { code: vat.code, role: vat.role, percent: vat.percent, base: positive(vat.base) };
}

/** A line of entry/insert or entry/update: a posting that may name a VAT code to split it by. */
export interface EntryLineInput extends PostingInput {
  /** A VAT code of the instance; the line is split into base and tax (vat-split.ts). */
  vatCode?: string | null | undefined;
  /** Whether `amount` includes the tax; default the code's `defaultEntry`. */
  vatEntry?: VatEntry | null | undefined;
}

export interface JournalEntryInput {
  /** YYYY-MM-DD. */
  dateLedger: string;
  description: string;
  /** Where the entry comes from: 'manual', 'import', 'invoice', 'bill', … */
  source?: string;
  /** The source document's key (invoice uuid, import entry key). */
  sourceRef?: string | null;
  /** Postings; a line with a `vatCode` is split into base and tax (vat-split.ts) at the ledger date's rate. */
  lines: readonly EntryLineInput[];
}

// The domain schema's texts, so a route and a direct caller see the same messages.
const UNBALANCED = validationMessages.debitCreditUnequal;
const TOO_FEW = validationMessages.journalEntryTwoLines;

const asDecimalString = (value: string | Money): string => (typeof value === 'string' ? value : value.toFixed());

/**
 * Reads what validating `lines` needs (base currency, lock date, their accounts) in one statement.
 * Throws 400 for fewer than two postings before touching the database.
 */
async function loadPostingContext(tx: Tx, instanceId: string, lines: readonly PostingInput[]): Promise<PostingContext> {
  if (lines.length < 2) throw new AccountingError('entry_unbalanced', TOO_FEW, { entryAccounts: TOO_FEW });
  const vatCodes = [...new Set(lines.flatMap((line) => (line.vat ? [line.vat.code] : [])))];
  return selectPostingContext(tx, instanceId, [...new Set(lines.map((line) => line.accountId))], vatCodes);
}

/** A positive decimal of at most `decimals` places, for the VAT figures callers hand in. */
const isVatFigure = (value: string | undefined, decimals: number): value is string =>
  value !== undefined && isAmountString(value, decimals) && !value.startsWith('-');

/**
 * Validates postings against the instance's accounts and currency rules and returns them as insert
 * columns (ids and entry id still to fill). Field names are relative to the entry (`entryAccounts.N.amount`).
 * Rules: `amount` = round2(originalAmount × exchangeRate), half-up, when both are given; a posting
 * in another currency than the instance's needs both; debit total = credit total; ≥ 2 postings.
 */
function resolvePostings(
  context: PostingContext,
  dateLedger: string,
  lines: readonly PostingInput[],
  origins?: readonly number[],
): Omit<JournalLineColumns, 'id' | 'entryId'> {
  const fields: Record<string, string> = {};
  // A field of a line the split added is named on the line it came from.
  const fail = (field: string, message: string) => {
    const [index, ...rest] = field.split('.');
    const origin = origins?.[Number(index)] ?? index;
    fields[`entryAccounts.${[origin, ...rest].join('.')}`] ??= message;
  };
  const instanceCurrencyId = context.currencyId;

  const columns: Omit<JournalLineColumns, 'id' | 'entryId'> = {
    dateLedger: [],
    accountId: [],
    direction: [],
    amount: [],
    currencyId: [],
    amountOriginal: [],
    exchangeRate: [],
    description: [],
    vatCode: [],
    vatRole: [],
    vatPercent: [],
    vatBase: [],
    vatAmount: [],
  };
  let debit = toMoney(0);
  let credit = toMoney(0);
  lines.forEach((line, index) => {
    if (!context.accounts.has(line.accountId)) fail(`${index}.account.id`, `ledger account ${line.accountId} not found`);
    const currencyId = line.currency == null ? instanceCurrencyId : Currency[line.currency];
    const amount = line.amount == null ? undefined : asDecimalString(line.amount);
    const original = line.originalAmount == null ? undefined : asDecimalString(line.originalAmount);
    const rate = line.exchangeRate == null ? undefined : asDecimalString(line.exchangeRate);

    if (amount !== undefined && (!isAmountString(amount, 2) || amount.startsWith('-'))) {
      return fail(`${index}.amount`, amount.startsWith('-') ? validationMessages.negativeNotAccepted : amountMessage(2));
    }
    if (original !== undefined && (!isAmountString(original, 10) || original.startsWith('-'))) {
      return fail(`${index}.originalAmount`, original.startsWith('-') ? validationMessages.negativeNotAccepted : amountMessage(10));
    }
    if (rate !== undefined && (!isAmountString(rate, 10) || toMoney(rate).lte(0))) {
      return fail(`${index}.exchangeRate`, validationMessages.exchangeRateInvalid);
    }
    if ((original === undefined) !== (rate === undefined)) {
      return fail(
        original === undefined ? `${index}.originalAmount` : `${index}.exchangeRate`,
        'originalAmount and exchangeRate are given together',
      );
    }
    let base: Money;
    if (original !== undefined && rate !== undefined) {
      // Half-up to the cent, as toFixedAmount rounds everywhere else; kept a Decimal so a product
      // too large for the column reaches the database (numeric overflow → 400), not a RangeError.
      const converted = toMoney(original).times(toMoney(rate)).toDecimalPlaces(2, Money.ROUND_HALF_UP);
      if (amount !== undefined && !toMoney(amount).eq(converted)) {
        return fail(
          `${index}.amount`,
          `must equal originalAmount × exchangeRate rounded to 2 decimals (${toFixedAmount(converted)})`,
        );
      }
      base = converted;
    } else if (currencyId !== instanceCurrencyId) {
      return fail(`${index}.originalAmount`, 'originalAmount and exchangeRate are required for a posting in another currency');
    } else if (amount === undefined) {
      return fail(`${index}.amount`, validationMessages.fieldRequired);
    } else {
      base = toMoney(amount);
    }
    // A posting moves money; the database refuses 0.00 too (migration 0015). Reachable only through
    // a foreign amount that converts to less than half a cent.
    if (base.isZero()) return fail(`${index}.${original !== undefined ? 'originalAmount' : 'amount'}`, validationMessages.amountPositive);
    let vat: { code: string; role: VatRole; percent: string; base: string; amount: string } | null = null;
    if (line.vat) {
      const { code, role, percent } = line.vat;
      const known = context.vatCodes.get(code);
      // Codes named by a user were checked by the split (400); a document's code must exist too.
      if (!known) {
        const message = `VAT code ${code} not found: add it under Accounting → VAT codes`;
        throw new AccountingError('vat_code_missing', message, { [`entryAccounts.${origins?.[index] ?? index}.vatCode`]: message });
      }
      if (!isAmountString(percent, 3) || toMoney(percent).lt(0) || toMoney(percent).gte(100)) {
        return fail(`${index}.vatCode`, `the VAT rate ${percent} must be a percent from 0 to below 100`);
      }
      const other = role === 'base' ? line.vat.tax : line.vat.base;
      if (!isVatFigure(other, 10)) return fail(`${index}.vatCode`, `the ${role === 'base' ? 'tax' : 'base'} of VAT code ${code} is missing`);
      // The other figure is in the posting's currency: converted as the amount is, half-up to the cent.
      const otherBase = toMoney(other).times(rate === undefined ? 1 : toMoney(rate)).toDecimalPlaces(2, Money.ROUND_HALF_UP);
      const sign = line.direction === vatNormalDirection(known.kind, role) ? 1 : -1;
      vat = {
        code,
        role,
        percent,
        base: toFixedAmount((role === 'base' ? base : otherBase).times(sign)),
        amount: toFixedAmount((role === 'base' ? otherBase : base).times(sign)),
      };
    }
    if (line.direction === 1) debit = debit.plus(base);
    else credit = credit.plus(base);
    columns.dateLedger.push(dateLedger);
    columns.accountId.push(line.accountId);
    columns.direction.push(line.direction);
    columns.amount.push(toFixedAmount(base));
    columns.currencyId.push(currencyId);
    columns.amountOriginal.push(original ?? toFixedAmount(base));
    columns.exchangeRate.push(rate ?? '1');
    columns.description.push(line.description ?? null);
    columns.vatCode.push(vat?.code ?? null);
    columns.vatRole.push(vat?.role ?? null);
    columns.vatPercent.push(vat?.percent ?? null);
    columns.vatBase.push(vat?.base ?? null);
    columns.vatAmount.push(vat?.amount ?? null);
  });
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw new AccountingError('invalid_input', `${first![0]}: ${first![1]}`, fields);
  }
  if (!debit.eq(credit)) {
    throw new AccountingError('entry_unbalanced', `${UNBALANCED} (debit ${toFixedAmount(debit)}, credit ${toFixedAmount(credit)})`, {
      entryAccounts: UNBALANCED,
    });
  }
  return columns;
}

function assertOpenPeriod(lockDate: string | null, dates: readonly string[]): void {
  if (lockDate === null) return;
  const locked = dates.find((date) => date <= lockDate);
  if (locked) throw periodLocked(locked, lockDate);
}

async function writePostings(
  tx: Tx,
  instanceId: string,
  entryId: number,
  columns: Omit<JournalLineColumns, 'id' | 'entryId'>,
): Promise<void> {
  const firstId = await allocateIds(tx, instanceId, 'journal_line', columns.accountId.length);
  await insertJournalLines(tx, instanceId, {
    ...columns,
    id: columns.accountId.map((_, i) => firstId + i),
    entryId: columns.accountId.map(() => entryId),
  });
}

/**
 * Posts one journal entry inside the caller's transaction and returns it as `entry/detail` would.
 * Other modules (invoices, bills) call this inside their own document's transaction (STYLE.md #7).
 * Three statements: the context read, one insert of entry and postings, nothing read back (one
 * more for the VAT codes when a line names one).
 * Throws 400 (`entryAccounts…` fields: unknown account or VAT code, amounts, debit ≠ credit after
 * the VAT split, < 2 postings) or 409 (`dateLedger` on or before the lock date).
 */
export async function postJournalEntryDetailed(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  input: JournalEntryInput,
): Promise<JournalEntry> {
  const split = await splitCodedLines(tx, instanceId, input.dateLedger, input.lines);
  const context = await loadPostingContext(tx, instanceId, split.lines);
  const columns = resolvePostings(context, input.dateLedger, split.lines, split.origins);
  assertOpenPeriod(context.lockDate, [input.dateLedger]);
  const source = input.source ?? 'manual';
  const inserted = await insertJournalEntryWithLines(
    tx,
    instanceId,
    { dateLedger: input.dateLedger, description: input.description, sourceRef: input.sourceRef ?? null, source, createdBy: userId },
    columns,
  );
  let debitTotal = toMoney(0);
  const entryAccounts = inserted.lines.map((line, index) => {
    const accountId = columns.accountId[index]!;
    const direction = columns.direction[index] as 1 | -1;
    if (direction === 1) debitTotal = debitTotal.plus(line.amount);
    return {
      id: line.id,
      account: { id: accountId, ...context.accounts.get(accountId)! },
      amount: toFixedAmount(line.amount),
      direction,
      originalAmount: trimDecimal(line.amountOriginal, 2),
      exchangeRate: trimDecimal(line.exchangeRate, 0),
      currency: currencyCodeById(columns.currencyId[index]!) ?? 'CHF',
      description: columns.description[index] ?? null,
      vat: postingVat(columns, index),
    };
  });
  return {
    id: inserted.entryId,
    dateLedger: input.dateLedger,
    description: input.description,
    source,
    entryAccounts,
    debitTotal: toFixedAmount(debitTotal),
  };
}

/** The VAT of posting `index` of `columns` as the answers show it (JournalLine.vat). */
function postingVat(columns: Omit<JournalLineColumns, 'id' | 'entryId'>, index: number): PostingVat | null {
  const code = columns.vatCode[index];
  if (code == null) return null;
  return {
    code,
    role: columns.vatRole[index]!,
    percent: trimDecimal(toMoney(columns.vatPercent[index]!).toFixed(3), 1),
    base: columns.vatBase[index]!,
    amount: columns.vatAmount[index]!,
  };
}

/** As `postJournalEntryDetailed`, returning only the new entry's id. */
export async function postJournalEntry(tx: Tx, instanceId: string, userId: string | null, input: JournalEntryInput): Promise<number> {
  return (await postJournalEntryDetailed(tx, instanceId, userId, input)).id;
}

/** An entry of `postJournalEntries`: posted (its id), or left out because its date is locked. */
export type BatchPosting = { id: number } | { reason: string };

/**
 * Posts many journal entries of one `source` in five statements, whatever their number (issue 14 §4:
 * a statement's bank charges are one call, not a round trip each). Each entry is checked as
 * `postJournalEntry` checks it; an entry dated on or before the lock date is not posted and answers
 * the lock's message instead, so one locked date does not refuse the others. Lines may carry a
 * resolved `vat` but no `vatCode` to split (that needs the VAT codes of each entry's date: post
 * those one by one). Returns, in input order, each entry's id or the reason it was left out.
 * Throws 400 like `postJournalEntry` (fields prefixed `entries.N.`) for an invalid entry: nothing is posted.
 */
export async function postJournalEntries(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  source: string,
  inputs: readonly Omit<JournalEntryInput, 'source'>[],
): Promise<BatchPosting[]> {
  if (!inputs.length) return [];
  inputs.forEach((input, index) => {
    if (input.lines.some((line) => line.vatCode != null || line.vatEntry != null)) {
      throw invalidField(`entries.${index}.entryAccounts`, 'a VAT code to split is posted one entry at a time (postJournalEntry)');
    }
    if (input.lines.length < 2) throw new AccountingError('entry_unbalanced', TOO_FEW, { [`entries.${index}.entryAccounts`]: TOO_FEW });
  });
  const context = await loadPostingContext(tx, instanceId, inputs.flatMap((input) => input.lines));
  const results: BatchPosting[] = [];
  const posted: { input: Omit<JournalEntryInput, 'source'>; columns: Omit<JournalLineColumns, 'id' | 'entryId'> }[] = [];
  inputs.forEach((input, index) => {
    let columns: Omit<JournalLineColumns, 'id' | 'entryId'>;
    try {
      columns = resolvePostings(context, input.dateLedger, input.lines);
    } catch (error) {
      if (!(error instanceof AccountingError)) throw error;
      const fields = Object.fromEntries(Object.entries(error.fields ?? {}).map(([field, message]) => [`entries.${index}.${field}`, message]));
      throw new AccountingError(error.accountingCode, `entry ${index + 1}: ${error.message}`, fields);
    }
    if (context.lockDate !== null && input.dateLedger <= context.lockDate) {
      results[index] = { reason: periodLocked(input.dateLedger, context.lockDate).message };
      return;
    }
    posted.push({ input, columns });
  });
  if (!posted.length) return results;
  const lineCount = posted.reduce((sum, p) => sum + p.columns.accountId.length, 0);
  const firstEntryId = await allocateIds(tx, instanceId, 'journal_entry', posted.length);
  const firstLineId = await allocateIds(tx, instanceId, 'journal_line', lineCount);
  const lines: JournalLineColumns = {
    id: [], entryId: [], dateLedger: [], accountId: [], direction: [], amount: [], currencyId: [], amountOriginal: [],
    exchangeRate: [], description: [], vatCode: [], vatRole: [], vatPercent: [], vatBase: [], vatAmount: [],
  };
  posted.forEach(({ columns }, entryIndex) => {
    for (const [key, values] of Object.entries(columns) as [keyof typeof columns, unknown[]][]) (lines[key] as unknown[]).push(...values);
    for (let i = 0; i < columns.accountId.length; i += 1) {
      lines.id.push(firstLineId + lines.entryId.length);
      lines.entryId.push(firstEntryId + entryIndex);
    }
  });
  const write = async () => {
    await insertJournalEntries(
      tx,
      instanceId,
      {
        id: posted.map((_, i) => firstEntryId + i),
        dateLedger: posted.map((p) => p.input.dateLedger),
        description: posted.map((p) => p.input.description),
        sourceRef: posted.map((p) => p.input.sourceRef ?? null),
      },
      { source, createdBy: userId },
    );
    await insertJournalLines(tx, instanceId, lines);
  };
  // Entry and lines come in separate statements here; the database lets a document's lines follow
  // their entry only under the document-write flag (migration 0014), which its own code may set.
  if (isDocumentSource(source)) await withDocumentPostingWrite(tx, write);
  else await write();
  let next = firstEntryId;
  return inputs.map((_, index) => results[index] ?? { id: next++ });
}

/** One journal entry with its postings; 404 when the id is not one of the instance's entries. */
export async function getJournalEntry(tx: Tx, instanceId: string, entryId: number): Promise<JournalEntry> {
  const [entry] = await selectJournalEntries(tx, instanceId, [entryId]);
  if (!entry) throw notFoundError('journal_entry_not_found', 'journal entry', entryId);
  return entry;
}

async function requireEntryHead(tx: Tx, instanceId: string, entryId: number): Promise<JournalEntryHead> {
  const head = await selectJournalEntryHead(tx, instanceId, entryId);
  if (!head) throw notFoundError('journal_entry_not_found', 'journal entry', entryId);
  return head;
}

/** Who changes entries through the journal routes, and how documents are named to them. */
export interface EntryChangeContext {
  actor: { userId: string | null; ip?: string | null; userAgent?: string | null };
  /** Resolvers of the modules that post documents (wiring/wiring.ts). */
  documents: DocumentResolvers;
}

/**
 * 409 `document_posting` for an entry posted by a document (issue 11 §2): the body names the
 * document (`document: { type, reference, uuid, link }`).
 */
async function refuseDocumentPosting(tx: Tx, instanceId: string, head: JournalEntryHead, context: EntryChangeContext): Promise<void> {
  const document = await documentOfEntry(tx, instanceId, head, context.documents);
  if (!document) return;
  const message = `journal entry ${head.id} was posted by ${document.type} ${document.reference}: change it through the ${document.type}`;
  // No `fields`: the entry as a whole is refused, whichever field of the body named it.
  throw new AccountingError('document_posting', message, undefined, { code: 'document_posting', document });
}

/** Writes a change of manual entries to the audit trail: who, when (the event's time), before and after. */
async function auditEntryChange(tx: Tx, instanceId: string, context: EntryChangeContext, event: JournalAuditEvent, detail: Record<string, unknown>): Promise<void> {
  await recordAudit(tx, { event, instanceId, userId: context.actor.userId, ip: context.actor.ip ?? null, userAgent: context.actor.userAgent ?? null, detail });
}

/**
 * Replaces date, description and postings of a manual or imported entry (postings get new ids) and
 * returns it. 404 unknown id, 409 `document_posting` for a document's entry, 409 when the old or
 * the new date is on or before the lock date, 400 as for posting. Audited with before and after.
 */
export async function replaceJournalEntry(
  tx: Tx,
  instanceId: string,
  entryId: number,
  input: Omit<JournalEntryInput, 'source' | 'sourceRef'>,
  context: EntryChangeContext,
): Promise<JournalEntry> {
  const head = await requireEntryHead(tx, instanceId, entryId);
  await refuseDocumentPosting(tx, instanceId, head, context);
  const split = await splitCodedLines(tx, instanceId, input.dateLedger, input.lines);
  const postingContext = await loadPostingContext(tx, instanceId, split.lines);
  const columns = resolvePostings(postingContext, input.dateLedger, split.lines, split.origins);
  assertOpenPeriod(postingContext.lockDate, [head.dateLedger, input.dateLedger]);
  const before = await getJournalEntry(tx, instanceId, entryId);
  // Lines first: the entry's date change would otherwise cascade into lines about to be replaced.
  await deleteJournalLinesOfEntry(tx, instanceId, entryId);
  await updateJournalEntryHead(tx, instanceId, entryId, { dateLedger: input.dateLedger, description: input.description });
  await writePostings(tx, instanceId, entryId, columns);
  const after = await getJournalEntry(tx, instanceId, entryId);
  await auditEntryChange(tx, instanceId, context, 'journal_entry.updated', { entryId, before, after });
  return after;
}

/**
 * Deletes a manual or imported entry and its postings; 404 unknown id, 409 `document_posting`, 409
 * on or before the lock date. Audited with the deleted entry.
 */
export async function deleteJournalEntry(tx: Tx, instanceId: string, entryId: number, context: EntryChangeContext): Promise<void> {
  const head = await requireEntryHead(tx, instanceId, entryId);
  await refuseDocumentPosting(tx, instanceId, head, context);
  assertOpenPeriod(await selectLockDate(tx, instanceId), [head.dateLedger]);
  const before = await getJournalEntry(tx, instanceId, entryId);
  await deleteJournalLinesOfEntry(tx, instanceId, entryId);
  await deleteJournalEntryRow(tx, instanceId, entryId);
  await auditEntryChange(tx, instanceId, context, 'journal_entry.deleted', { entryId, before, after: null });
}

/**
 * Moves the postings of `entry2` into `entry1` and deletes `entry2`. Both must exist (404), be
 * manual or imported (409 `document_posting`) and have the same date (400 on `entry2`); 409 on or
 * before the lock date. Returns the merged entry; audited with both entries before and the result.
 */
export async function mergeJournalEntries(tx: Tx, instanceId: string, entry1: number, entry2: number, context: EntryChangeContext): Promise<JournalEntry> {
  if (entry1 === entry2) throw invalidField('entry2', 'an entry cannot be merged with itself');
  const target = await requireEntryHead(tx, instanceId, entry1);
  const source = await requireEntryHead(tx, instanceId, entry2);
  await refuseDocumentPosting(tx, instanceId, target, context);
  await refuseDocumentPosting(tx, instanceId, source, context);
  if (target.dateLedger !== source.dateLedger) {
    throw invalidField(
      'entry2',
      `entry ${entry2} is dated ${source.dateLedger} and entry ${entry1} ${target.dateLedger}: only entries of the same date can be merged`,
    );
  }
  assertOpenPeriod(await selectLockDate(tx, instanceId), [target.dateLedger]);
  const before = await selectJournalEntries(tx, instanceId, [entry1, entry2]);
  await moveJournalLines(tx, instanceId, entry2, entry1);
  await deleteJournalEntryRow(tx, instanceId, entry2);
  const after = await getJournalEntry(tx, instanceId, entry1);
  await auditEntryChange(tx, instanceId, context, 'journal_entry.merged', { entryId: entry1, mergedEntryId: entry2, before, after });
  return after;
}

/**
 * Changes the account or the description of one posting of a manual or imported entry. 404 unknown
 * line, 409 `document_posting`, 400 (`account.id`) unknown account, 409 on or before the lock date
 * (both accounts' balances would change). Audited with the line before and after.
 */
export async function changeJournalLine(
  tx: Tx,
  instanceId: string,
  lineId: number,
  change: { accountId?: number | undefined; description?: string | null | undefined },
  context: EntryChangeContext,
): Promise<JournalLine> {
  const line = await selectJournalLine(tx, instanceId, lineId);
  if (!line) throw notFoundError('journal_line_not_found', 'journal line', lineId);
  await refuseDocumentPosting(tx, instanceId, await requireEntryHead(tx, instanceId, line.entryId), context);
  if (change.accountId !== undefined) {
    const [account] = await selectLedgerAccountHeads(tx, instanceId, [change.accountId]);
    if (!account) throw invalidField('account.id', `ledger account ${change.accountId} not found`);
  }
  // Any change of a posting on or before the lock date is refused, as the database trigger does.
  assertOpenPeriod(await selectLockDate(tx, instanceId), [line.dateLedger]);
  await updateJournalLine(tx, instanceId, lineId, change);
  const { entryId, dateLedger: _dateLedger, ...updated } = (await selectJournalLine(tx, instanceId, lineId))!;
  const { entryId: _before, dateLedger: _date, ...before } = line;
  await auditEntryChange(tx, instanceId, context, 'journal_line.updated', { entryId, lineId, before, after: updated });
  return updated;
}

/**
 * The document that posted entry `entryId` (null for a manual or imported entry), for
 * `entry/detail`; 404 unknown id.
 */
export async function documentOfJournalEntry(tx: Tx, instanceId: string, entryId: number, documents: DocumentResolvers): Promise<PostingDocument | null> {
  return documentOfEntry(tx, instanceId, await requireEntryHead(tx, instanceId, entryId), documents);
}

/** Source and source_ref of an entry (what its document wrote there); 404 unknown id. */
export async function journalEntrySource(tx: Tx, instanceId: string, entryId: number): Promise<DocumentEntry> {
  const { id, source, sourceRef } = await requireEntryHead(tx, instanceId, entryId);
  return { id, source, sourceRef };
}

/** A page of journal entries (by date, then id) with their postings, and the number matching (db/paging.ts). */
export async function listJournalEntries(
  tx: Tx,
  instanceId: string,
  filter: JournalEntryFilter,
  page: PageRequest & { order: 'asc' | 'desc' },
): Promise<{ data: JournalEntry[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { ids, ...rest } = await selectJournalEntryPage(tx, instanceId, filter, page);
  return { data: await selectJournalEntries(tx, instanceId, ids), ...rest };
}

export type AccountPosting = {
  id: number;
  entry: { id: number; dateLedger: string; description: string };
  amount: string;
  direction: 1 | -1;
  debit: string;
  credit: string;
  /** The account's balance after this posting (debit − credit, postings ordered by date, entry, line). */
  balance: string;
};

/**
 * An account's postings in ledger order (date, entry, line) with the balance after each, a page at
 * a time (db/paging.ts): `openingBalance` is the balance before `dateFrom` (0.00 without it),
 * `closingBalance` the balance at `dateTo` (all postings without it). A row's balance is the
 * balance before the page's first posting — month balances up to the month before it plus that
 * month's earlier postings (balance.service) — plus the postings up to it: no read of the whole
 * history. Amounts in the books' currency, 2 decimals. 404 unknown account.
 */
export async function listAccountPostings(
  tx: Tx,
  instanceId: string,
  filter: { accountId: number; dateFrom?: string | undefined; dateTo?: string | undefined; text?: string | undefined },
  page: PageRequest,
): Promise<{ data: AccountPosting[]; total: number; totalCapped: boolean; nextCursor: string | null; openingBalance: string; closingBalance: string }> {
  const [account] = await selectLedgerAccountHeads(tx, instanceId, [filter.accountId]);
  if (!account) throw notFoundError('ledger_account_not_found', 'ledger account', filter.accountId);
  const openingBalance = filter.dateFrom ? await accountBalanceAt(tx, instanceId, filter.accountId, dayBefore(filter.dateFrom)) : '0.00';
  const closingBalance = await accountBalanceAt(tx, instanceId, filter.accountId, filter.dateTo);
  const { rows, ...rest } = await selectAccountPostings(tx, instanceId, filter, page);
  let running = new Map<number, string>();
  let before = new Money(0);
  if (rows.length > 0) {
    const keyOf = (row: (typeof rows)[number]): PostingKey => [row.date_ledger, row.entry_id, row.id];
    const first = keyOf(rows[0]!);
    before = new Money(await accountBalanceAt(tx, instanceId, filter.accountId, dayBefore(first[0]))).plus(
      await selectSameDaySumBefore(tx, instanceId, filter.accountId, first),
    );
    running = await selectRunningSums(tx, instanceId, filter.accountId, first, keyOf(rows.at(-1)!));
  }
  return {
    data: rows.map((row) => ({
      id: row.id,
      entry: { id: row.entry_id, dateLedger: row.date_ledger, description: row.entry_description },
      amount: row.amount,
      direction: row.direction,
      debit: row.direction === 1 ? row.amount : '0.00',
      credit: row.direction === -1 ? row.amount : '0.00',
      balance: toFixedAmount(before.plus(new Money(running.get(row.id)!))),
    })),
    ...rest,
    openingBalance,
    closingBalance,
  };
}
