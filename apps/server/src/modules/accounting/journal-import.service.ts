/**
 * Journal import from CSV `date,entry,description,account,amount,currency[,vat][,vatEntry]` (spec §5
 * "Journal entry from imported data"): one row per posting, signed amount (positive debit, negative
 * credit), rows with the same `entry` key form one journal entry dated and described by its first
 * row. A row with a VAT code (`vat` or `vatCode`) is split into base and tax as entry/insert does
 * (decision 019), entered as `vatEntry` says (gross or net; default the code's).
 * All or nothing in the caller's transaction; shared by POST /api/accounting/import/journal and
 * the CLI's `import journal`.
 */
import {
  amountTooLargeMessage,
  currencyCodeById,
  isAmountString,
  isCurrencyCode,
  isValidIsoDate,
  isWithinAmountBound,
  MAX_AMOUNT,
  splitVatLine,
  toFixedAmount,
  toMoney,
  VAT_ACCOUNT_NAMES,
  VatSplitError,
  vatNormalDirection,
  type Money,
  type VatCode,
  type VatSplit,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError } from './accounting.errors.js';
import { selectInstanceCurrencyId, selectLockDate } from './accounting.sql.js';
import { parseCsv, RowErrors } from '../../lib/csv.js';
import { allocateIds, insertJournalEntries, insertJournalLines, type JournalLineColumns } from './journal-entry.sql.js';
import { ledgerAccountIdsByNumber } from './ledger-account.sql.js';
import { chartAccountId } from './ledger-account.service.js';
import { selectVatCodesForPosting } from './vat-code.sql.js';

/** Row date message: names the format, since a file has no form field to show it beside. */
const DATE_MESSAGE = 'expected a date YYYY-MM-DD with a year from 1900 to 2300';

export type JournalImportResult = {
  entries: number;
  lines: number;
  /** Earliest and latest entry date (YYYY-MM-DD). */
  dateFrom: string;
  dateTo: string;
};

const JOURNAL_COLUMNS = {
  required: ['date', 'entry', 'description', 'account', 'amount'],
  allowed: ['date', 'entry', 'description', 'account', 'amount', 'currency', 'vat', 'vatcode', 'vatentry'],
} as const;

/** The spec's message for an account number without a ledger account (spec §5, §8). */
export const unmappedAccountMessage = (number: string) => `could not map account ${number}`;

interface ImportEntry {
  key: string;
  line: number;
  date: string;
  description: string;
  rows: number[];
  balance: Money;
}

/**
 * Imports a journal CSV into the instance. Validation happens before any write: every unknown
 * account number is listed ("could not map account 1234, could not map account 5678"), other
 * errors name line and column; a currency other than the instance's is refused (the format has no
 * exchange rate); every entry must balance with ≥ 2 postings; no date on or before the lock date
 * (409). Then ids come from one next_ids call per kind and entries and postings are inserted in
 * batches of multi-row INSERT … SELECT FROM unnest, so the triggers run once per batch.
 */
export async function importJournal(tx: Tx, instanceId: string, userId: string | null, csvText: string): Promise<JournalImportResult> {
  const { records } = parseCsv(csvText, JOURNAL_COLUMNS);
  const instanceCurrency = currencyCodeById(await selectInstanceCurrencyId(tx, instanceId))!;
  const accountIds = await ledgerAccountIdsByNumber(tx, instanceId);
  const errors = new RowErrors();
  const unmapped = new Set<string>();
  const entries = new Map<string, ImportEntry>();

  const rowAccount: number[] = new Array(records.length);
  const rowAmount: string[] = new Array(records.length);
  // VAT codes: the column is `vat` or `vatCode`; each coded row is split once its entry's date is known.
  const vatColumn = records[0] && 'vatcode' in records[0].values ? 'vatcode' : 'vat';
  const named = [...new Set(records.map(({ values }) => values[vatColumn] ?? '').filter(Boolean))];
  const vatCodes = new Map((await selectVatCodesForPosting(tx, instanceId, named)).map((code) => [code.code, code]));
  const rowSplit: (VatSplit | undefined)[] = new Array(records.length);
  const rowCode: (VatCode | undefined)[] = new Array(records.length);
  records.forEach(({ line, values }, index) => {
    const date = values.date ?? '';
    const key = values.entry ?? '';
    const description = values.description ?? '';
    const number = values.account ?? '';
    const amount = values.amount ?? '';
    const currency = (values.currency ?? '').toUpperCase();

    if (!isValidIsoDate(date)) errors.add(line, 'date', DATE_MESSAGE);
    if (!key) errors.add(line, 'entry', 'This field is required');
    else if (key.length > 100) errors.add(line, 'entry', 'at most 100 characters');
    if (description.length > 500) errors.add(line, 'description', 'at most 500 characters');
    if (!number) errors.add(line, 'account', 'This field is required');
    else if (accountIds.has(number)) rowAccount[index] = accountIds.get(number)!;
    else unmapped.add(number);
    if (!isAmountString(amount, 2)) errors.add(line, 'amount', `"${amount}" is not an amount with at most 2 decimals such as -1994.75`);
    else if (!isWithinAmountBound(amount)) errors.add(line, 'amount', amountTooLargeMessage(MAX_AMOUNT));
    else rowAmount[index] = amount;
    if (currency && currency !== instanceCurrency) {
      errors.add(
        line,
        'currency',
        isCurrencyCode(currency)
          ? `${currency} is not the instance currency ${instanceCurrency}; the format has no exchange rate, so convert amounts to ${instanceCurrency} first`
          : `unknown currency "${values.currency}"`,
      );
    }
    const vatCode = values[vatColumn] ?? '';
    const vatEntry = (values.vatentry ?? '').toLowerCase();
    if (vatEntry && vatEntry !== 'gross' && vatEntry !== 'net') errors.add(line, 'vatentry', `expected gross or net, found "${values.vatentry}"`);
    else if (vatEntry && !vatCode) errors.add(line, 'vatentry', 'vatEntry is given only with a VAT code');
    if (vatCode) {
      const code = vatCodes.get(vatCode);
      if (!code) errors.add(line, vatColumn, `unknown VAT code "${vatCode}"`);
      else if (!code.isActive) errors.add(line, vatColumn, `VAT code ${vatCode} is inactive`);
      else rowCode[index] = code;
    }
    if (!key) return;
    const entry = entries.get(key);
    // The split needs the entry's date: the supply date that chooses the rate.
    const entryDate = entry?.date ?? date;
    const code = rowCode[index];
    const amountOfRow = rowAmount[index];
    let movement = amountOfRow === undefined ? toMoney(0) : toMoney(amountOfRow);
    if (code && amountOfRow !== undefined && isValidIsoDate(entryDate) && !toMoney(amountOfRow).isZero()) {
      try {
        const split = splitVatLine(
          { amount: amountOfRow.replace(/^-/, ''), direction: amountOfRow.startsWith('-') ? -1 : 1, entry: (vatEntry || null) as 'gross' | 'net' | null },
          code,
          entryDate,
        );
        rowSplit[index] = split;
        movement = split.postings.reduce((sum, p) => sum.plus(toMoney(p.amount).times(p.direction)), toMoney(0));
      } catch (error) {
        if (!(error instanceof VatSplitError)) throw error;
        errors.add(line, vatEntry ? 'vatentry' : vatColumn, error.message);
      }
    }
    if (!entry) {
      entries.set(key, { key, line, date, description, rows: [index], balance: movement });
      return;
    }
    if (date !== entry.date && isValidIsoDate(date)) {
      errors.add(line, 'date', `entry ${key} is dated ${entry.date} on line ${entry.line}; its rows must share that date`);
    }
    entry.rows.push(index);
    entry.balance = entry.balance.plus(movement);
  });

  for (const entry of entries.values()) {
    if (entry.rows.length < 2) errors.add(entry.line, 'entry', `entry ${entry.key} needs at least two postings`);
    else if (!entry.balance.isZero()) {
      errors.add(entry.line, 'amount', `entry ${entry.key} does not balance: debit minus credit is ${toFixedAmount(entry.balance)}`);
    }
  }
  if (unmapped.size || errors.count) {
    throw errors.toError(unmapped.size ? [{ column: 'account', message: [...unmapped].map(unmappedAccountMessage).join(', ') }] : []);
  }

  const list = [...entries.values()];
  const dates = list.map((entry) => entry.date).sort();
  const dateFrom = dates[0]!;
  const dateTo = dates[dates.length - 1]!;
  const lockDate = await selectLockDate(tx, instanceId);
  if (lockDate !== null && dateFrom <= lockDate) {
    const first = list.find((entry) => entry.date <= lockDate)!;
    const message = `line ${first.line}: the date ${first.date} is on or before the lock date ${lockDate}`;
    throw new AccountingError('period_locked', message, { dateLedger: message });
  }

  // Zero postings (they occur in real exports) move nothing and the books refuse them (migration
  // 0015, journal_line.amount > 0): skipped, and an entry of zeros only with them.
  const posted = list
    .map((entry) => ({ ...entry, rows: entry.rows.filter((row) => !toMoney(rowAmount[row]!).isZero()) }))
    .filter((entry) => entry.rows.length > 0);
  const lineCount = posted.reduce((sum, entry) => sum + entry.rows.reduce((n, row) => n + (rowSplit[row]?.postings.length ?? 1), 0), 0);
  // The codes' tax accounts, created on first use like entry/insert does (vat-split.ts).
  const taxAccounts = new Map<string, number>();
  const currencyCode = currencyCodeById(await selectInstanceCurrencyId(tx, instanceId))!;
  for (const split of rowSplit) {
    for (const posting of split?.postings ?? []) {
      const number = posting.accountNumber;
      if (number === null || taxAccounts.has(number)) continue;
      taxAccounts.set(number, accountIds.get(number) ?? (await chartAccountId(tx, instanceId, { number, name: VAT_ACCOUNT_NAMES[number] ?? `MWST ${number}` }, currencyCode)));
    }
  }
  const firstEntryId = await allocateIds(tx, instanceId, 'journal_entry', posted.length);
  const firstLineId = await allocateIds(tx, instanceId, 'journal_line', lineCount);
  const currencyId = await selectInstanceCurrencyId(tx, instanceId);
  const lines: JournalLineColumns = {
    id: [],
    entryId: [],
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
  posted.forEach((entry, entryIndex) => {
    for (const row of entry.rows) {
      const signed = rowAmount[row]!;
      const rowDescription = records[row]!.values.description ?? '';
      const split = rowSplit[row];
      const code = rowCode[row];
      const postings = split?.postings ?? [{ role: null, accountNumber: null, amount: signed.replace(/^-/, ''), direction: signed.startsWith('-') ? -1 : 1 }];
      for (const posting of postings) {
        lines.id.push(firstLineId + lines.id.length);
        lines.entryId.push(firstEntryId + entryIndex);
        lines.dateLedger.push(entry.date);
        lines.accountId.push(posting.accountNumber === null ? rowAccount[row]! : taxAccounts.get(posting.accountNumber)!);
        lines.direction.push(posting.direction);
        lines.amount.push(posting.amount);
        lines.currencyId.push(currencyId);
        lines.amountOriginal.push(posting.amount);
        lines.exchangeRate.push('1');
        // A row whose description differs from its entry's keeps it on the posting.
        lines.description.push(rowDescription === entry.description ? null : rowDescription);
        if (split && code && posting.role) {
          const sign = posting.direction === vatNormalDirection(code.kind, posting.role) ? 1 : -1;
          const base = posting.role === 'base' ? posting.amount : split.base;
          const tax = posting.role === 'base' ? split.tax : posting.amount;
          lines.vatCode.push(code.code);
          lines.vatRole.push(posting.role);
          lines.vatPercent.push(split.percent);
          lines.vatBase.push(toFixedAmount(toMoney(base).times(sign)));
          lines.vatAmount.push(toFixedAmount(toMoney(tax).times(sign)));
        } else {
          lines.vatCode.push(null);
          lines.vatRole.push(null);
          lines.vatPercent.push(null);
          lines.vatBase.push(null);
          lines.vatAmount.push(null);
        }
      }
    }
  });
  await insertJournalEntries(
    tx,
    instanceId,
    {
      id: posted.map((_, i) => firstEntryId + i),
      dateLedger: posted.map((entry) => entry.date),
      description: posted.map((entry) => entry.description),
      sourceRef: posted.map((entry) => entry.key),
    },
    { source: 'import', createdBy: userId },
  );
  await insertJournalLines(tx, instanceId, lines);
  return { entries: posted.length, lines: lineCount, dateFrom, dateTo };
}
