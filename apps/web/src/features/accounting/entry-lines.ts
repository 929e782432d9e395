/**
 * The journal entry form's arithmetic and its mapping to the entry/insert body, kept free of React
 * so it is tested on its own. Amounts stay decimal strings and Decimal values, never floats.
 */
import {
  DebitCredit,
  isAmountString,
  isCurrencyCode,
  splitVatLine,
  toFixedAmount,
  toMoney,
  VatSplitError,
  type JournalEntryInput,
  type JournalLineInput,
  type Money,
  type VatEntry,
  type VatRole,
  type VatSplitCode,
} from '@bilan/domain';
import { today } from '../../lib/dates';
import type { JournalEntry, JournalLine } from './api';

export interface LineValues {
  accountId: number | null;
  debit: string;
  credit: string;
  /** A VAT code: the line is split into its base and the code's tax (decision 019). */
  vatCode?: string | null;
  /** Whether the amount includes the tax; set to the code's default when a code is chosen. */
  vatEntry?: VatEntry | null;
  /** The line as loaded, so editing keeps its text and foreign-currency side when the amount is unchanged. */
  original?: JournalLine;
}

export interface EntryFormValues {
  dateLedger: string | null;
  description: string;
  lines: LineValues[];
}

export const emptyLine = (): LineValues => ({ accountId: null, debit: '', credit: '', vatCode: null, vatEntry: null });

/**
 * A saved entry as form lines. A coded entry comes back as its base lines with their code, entered
 * net (their amount is the base); the tax and deduction postings are left out: saving splits again.
 */
export function entryToFormValues(entry: JournalEntry): EntryFormValues {
  return {
    dateLedger: entry.dateLedger,
    description: entry.description,
    lines: entry.entryAccounts
      .filter((line) => !line.vat || line.vat.role === 'base')
      .map((line) => ({
        accountId: line.account.id,
        debit: line.direction === DebitCredit.debit ? line.amount : '',
        credit: line.direction === DebitCredit.credit ? line.amount : '',
        vatCode: line.vat?.code ?? null,
        vatEntry: line.vat ? 'net' : null,
        original: line,
      })),
  };
}

export const newEntryValues = (): EntryFormValues => ({ dateLedger: today(), description: '', lines: [emptyLine(), emptyLine()] });

/** An amount being typed ('12.', '') as exact money; anything unreadable counts as 0. */
export function typedAmount(text: string): Money {
  const cleaned = text.endsWith('.') ? text.slice(0, -1) : text;
  if (cleaned === '') return toMoney('0');
  try {
    return toMoney(cleaned);
  } catch {
    return toMoney('0');
  }
}

export function totals(lines: readonly LineValues[]) {
  let debit = toMoney('0');
  let credit = toMoney('0');
  for (const line of lines) {
    debit = debit.plus(typedAmount(line.debit));
    credit = credit.plus(typedAmount(line.credit));
  }
  return { debit, credit, difference: debit.minus(credit) };
}

export const isBlankLine = (line: LineValues) => line.accountId === null && line.debit === '' && line.credit === '' && !line.vatCode;

/** One posting the server will write for the form (vat-split.ts does the same split). */
export interface PreviewPosting {
  /** The form line it comes from. */
  line: number;
  /** The line's own account (base or uncoded), or null for a tax posting on `accountNumber`. */
  accountId: number | null;
  accountNumber: string | null;
  direction: 1 | -1;
  amount: Money;
  vat: { code: string; role: VatRole; percent: string } | null;
}

export interface EntryPreview {
  postings: PreviewPosting[];
  /** Form line → why it cannot be split (a gross acquisition tax, an unknown code). */
  problems: Map<number, string>;
  debit: Money;
  credit: Money;
  difference: Money;
  /** Whether any line carries a VAT code (the preview then differs from the typed lines). */
  hasVat: boolean;
}

/**
 * The postings of the form as the server will write them: each coded line split by the domain's
 * `splitVatLine` at the rate of the entry date (the supply date), the others as typed; totals after
 * the split, so a net amount's tax counts in the difference before saving.
 */
export function previewEntry(values: EntryFormValues, codes: ReadonlyMap<string, VatSplitCode>): EntryPreview {
  const postings: PreviewPosting[] = [];
  const problems = new Map<number, string>();
  let hasVat = false;
  values.lines.forEach((line, index) => {
    if (isBlankLine(line)) return;
    const isDebit = line.debit !== '' && !typedAmount(line.debit).isZero();
    const amount = typedAmount(isDebit ? line.debit : line.credit);
    const direction = isDebit ? DebitCredit.debit : DebitCredit.credit;
    if (amount.isZero()) return;
    const code = line.vatCode ? codes.get(line.vatCode) : undefined;
    if (line.vatCode) hasVat = true;
    const text = toFixedAmount(amount);
    if (!code || !values.dateLedger || !isAmountString(text, 2)) {
      if (line.vatCode && !code) problems.set(index, `VAT code ${line.vatCode} not found`);
      postings.push({ line: index, accountId: line.accountId, accountNumber: null, direction, amount, vat: null });
      return;
    }
    try {
      const split = splitVatLine({ amount: text, direction, entry: line.vatEntry }, code, values.dateLedger);
      for (const posting of split.postings) {
        postings.push({
          line: index,
          accountId: posting.accountNumber === null ? line.accountId : null,
          accountNumber: posting.accountNumber,
          direction: posting.direction,
          amount: toMoney(posting.amount),
          vat: { code: code.code, role: posting.role, percent: split.percent },
        });
      }
    } catch (error) {
      if (!(error instanceof VatSplitError)) throw error;
      problems.set(index, error.message);
      postings.push({ line: index, accountId: line.accountId, accountNumber: null, direction, amount, vat: null });
    }
  });
  let debit = toMoney('0');
  let credit = toMoney('0');
  for (const posting of postings) {
    if (posting.direction === DebitCredit.debit) debit = debit.plus(posting.amount);
    else credit = credit.plus(posting.amount);
  }
  return { postings, problems, debit, credit, difference: debit.minus(credit), hasVat };
}

/**
 * Form values → entry/insert body. Blank lines are left out; `indexes[i]` is the form line of
 * payload line i, so schema errors land on the right row.
 */
export function toPayload(values: EntryFormValues): { payload: JournalEntryInput; indexes: number[] } {
  const indexes: number[] = [];
  const entryAccounts: JournalLineInput[] = [];
  values.lines.forEach((line, index) => {
    if (isBlankLine(line)) return;
    const isDebit = line.debit !== '' && !typedAmount(line.debit).isZero();
    const text = isDebit ? line.debit : line.credit;
    const amount = text === '' ? '' : toFixedAmount(typedAmount(text));
    const direction = isDebit ? DebitCredit.debit : DebitCredit.credit;
    const { original } = line;
    const unchanged =
      original && original.account.id === line.accountId && original.direction === direction && toMoney(original.amount).eq(typedAmount(text));
    indexes.push(index);
    entryAccounts.push({
      account: { id: line.accountId ?? 0 },
      amount,
      direction,
      ...(original?.description ? { description: original.description } : {}),
      ...(line.vatCode ? { vatCode: line.vatCode, ...(line.vatEntry ? { vatEntry: line.vatEntry } : {}) } : {}),
      ...(unchanged && isCurrencyCode(original.currency)
        ? { currency: original.currency, originalAmount: original.originalAmount, exchangeRate: original.exchangeRate }
        : {}),
    });
  });
  return {
    payload: { dateLedger: values.dateLedger ?? '', description: values.description.trim(), entryAccounts },
    indexes,
  };
}

/** Maps 'entryAccounts.2.amount' → 'lines.<form index>.debit|credit', 'dateLedger' → itself. */
export function formPath(path: string, values: EntryFormValues, indexes: number[]): string | undefined {
  const match = /^entryAccounts\.(\d+)\.(\w+)/.exec(path);
  if (!match) return path === 'entryAccounts' ? undefined : path;
  const index = indexes[Number(match[1])];
  if (index === undefined) return undefined;
  const line = values.lines[index];
  if (match[2] === 'account') return `lines.${index}.accountId`;
  if (match[2] === 'vatCode' || match[2] === 'vatEntry') return `lines.${index}.vatCode`;
  return `lines.${index}.${line && line.debit !== '' ? 'debit' : 'credit'}`;
}

