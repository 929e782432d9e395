/**
 * The split of coded journal lines (issue 13 §2, decision 019): a line of entry/insert, entry/update
 * or the journal import that names a VAT code becomes its base posting plus the tax posting(s) of
 * the code, computed by the domain's `splitVatLine` (the entry form previews the same function).
 */
import { isAmountString, splitVatLine, toMoney, VAT_ACCOUNT_NAMES, VatSplitError, type VatCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError } from './accounting.errors.js';
import type { EntryLineInput, PostingInput } from './journal-entry.service.js';
import { booksCurrency, chartAccountId } from './ledger-account.service.js';
import { selectVatCodesForPosting } from './vat-code.sql.js';

export interface SplitLines {
  lines: PostingInput[];
  /** For each resulting posting, the index of the input line it came from (to name fields). */
  origins: number[];
}

/**
 * Splits every line with a `vatCode` at the rate of `supplyDate` (the entry's ledger date). Lines
 * without a code pass unchanged. A line in another currency is split on its `originalAmount`, and
 * each posting is converted at the line's rate. 400 (`entryAccounts.N.vatCode`) for an unknown or
 * inactive code, (`entryAccounts.N.vatEntry`) for `vatEntry` without a code or a gross acquisition
 * tax; every problem of the entry is named at once. The tax accounts of the code are found by
 * number and created on first use (2202, 2203; decision 008), in the books' currency.
 */
export async function splitCodedLines(tx: Tx, instanceId: string, supplyDate: string, input: readonly EntryLineInput[]): Promise<SplitLines> {
  const identity = (): SplitLines => ({ lines: input.map(stripVatFields), origins: input.map((_, index) => index) });
  if (!input.some((line) => line.vatCode != null || line.vatEntry != null)) return identity();

  const fields: Record<string, string> = {};
  const fail = (field: string, message: string) => {
    fields[`entryAccounts.${field}`] ??= message;
  };
  const named = [...new Set(input.flatMap((line) => (line.vatCode != null ? [line.vatCode] : [])))];
  const codes = new Map((await selectVatCodesForPosting(tx, instanceId, named)).map((code) => [code.code, code]));
  const accountIds = new Map<string, number>();
  let currency: Awaited<ReturnType<typeof booksCurrency>> | undefined;
  const accountId = async (number: string): Promise<number> => {
    const known = accountIds.get(number);
    if (known !== undefined) return known;
    currency ??= await booksCurrency(tx, instanceId);
    const id = await chartAccountId(tx, instanceId, { number, name: VAT_ACCOUNT_NAMES[number] ?? `MWST ${number}` }, currency);
    accountIds.set(number, id);
    return id;
  };

  const result: SplitLines = { lines: [], origins: [] };
  for (const [index, line] of input.entries()) {
    const plain = stripVatFields(line);
    if (line.vatCode == null) {
      if (line.vatEntry != null) fail(`${index}.vatEntry`, 'vatEntry is given only with a vatCode');
      result.lines.push(plain);
      result.origins.push(index);
      continue;
    }
    const code: VatCode | undefined = codes.get(line.vatCode);
    if (!code) {
      fail(`${index}.vatCode`, `VAT code ${line.vatCode} not found`);
      continue;
    }
    if (!code.isActive) {
      fail(`${index}.vatCode`, `VAT code ${line.vatCode} is inactive`);
      continue;
    }
    // Foreign lines split their original amount; the posting's amount is then converted again.
    const foreign = line.originalAmount != null;
    const entered = String(foreign ? line.originalAmount : (line.amount ?? ''));
    if (!isAmountString(entered, foreign ? 10 : 2) || !toMoney(entered).gt(0)) {
      // Not an amount: the posting's own checks name the field.
      result.lines.push(plain);
      result.origins.push(index);
      continue;
    }
    let split;
    try {
      split = splitVatLine({ amount: entered, direction: line.direction, entry: line.vatEntry }, code, supplyDate);
    } catch (error) {
      if (!(error instanceof VatSplitError)) throw error;
      fail(`${index}.${line.vatEntry === 'gross' ? 'vatEntry' : 'vatCode'}`, error.message);
      continue;
    }
    for (const posting of split.postings) {
      const amounts = foreign ? { amount: undefined, originalAmount: posting.amount } : { amount: posting.amount };
      result.lines.push({
        ...plain,
        ...amounts,
        accountId: posting.accountNumber === null ? line.accountId : await accountId(posting.accountNumber),
        direction: posting.direction,
        vat:
          posting.role === 'base'
            ? { code: code.code, role: 'base', percent: split.percent, tax: split.tax }
            : { code: code.code, role: posting.role, percent: split.percent, base: split.base },
      });
      result.origins.push(index);
    }
  }
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw new AccountingError('invalid_input', `${first![0]}: ${first![1]}`, fields);
  }
  return result;
}

const stripVatFields = ({ vatCode: _code, vatEntry: _entry, ...posting }: EntryLineInput): PostingInput => posting;
