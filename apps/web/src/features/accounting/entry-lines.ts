/**
 * The journal entry form's arithmetic and its mapping to the entry/insert body, kept free of React
 * so it is tested on its own. Amounts stay decimal strings and Decimal values, never floats.
 */
import {
  DebitCredit,
  isCurrencyCode,
  toFixedAmount,
  toMoney,
  type JournalEntryInput,
  type JournalLineInput,
  type Money,
} from '@bilan/domain';
import { today } from '../../lib/dates';
import type { JournalEntry, JournalLine } from './api';

export interface LineValues {
  accountId: number | null;
  debit: string;
  credit: string;
  /** The line as loaded, so editing keeps its text and foreign-currency side when the amount is unchanged. */
  original?: JournalLine;
}

export interface EntryFormValues {
  dateLedger: string | null;
  description: string;
  lines: LineValues[];
}

export const emptyLine = (): LineValues => ({ accountId: null, debit: '', credit: '' });

export function entryToFormValues(entry: JournalEntry): EntryFormValues {
  return {
    dateLedger: entry.dateLedger,
    description: entry.description,
    lines: entry.entryAccounts.map((line) => ({
      accountId: line.account.id,
      debit: line.direction === DebitCredit.debit ? line.amount : '',
      credit: line.direction === DebitCredit.credit ? line.amount : '',
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

export const isBlankLine = (line: LineValues) => line.accountId === null && line.debit === '' && line.credit === '';

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
  return `lines.${index}.${line && line.debit !== '' ? 'debit' : 'credit'}`;
}

