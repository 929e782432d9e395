/**
 * Settling an open item: the postings that pay a receivable (sales invoice) or a payable (bill),
 * with the realized exchange difference when the document is in another currency than the books
 * (docs/decisions/012-realized-exchange-differences.md).
 */
import {
  isImplausibleFxDifference,
  realizedFxDifference,
  settlementRate,
  toBaseAmount,
  toFixedAmount,
  toMoney,
  type CurrencyCode,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { invalidField } from './accounting.errors.js';
import type { PostingInput } from './journal-entry.service.js';
import { chartAccountId } from './ledger-account.service.js';

export interface Settlement {
  /** A receivable is paid into the bank (debit bank); a payable out of it (credit bank). */
  kind: 'receivable' | 'payable';
  /** The account the document was booked on: receivables 1100, payables 2000, staff 2250. */
  documentAccountId: number;
  /** The bank, cash or card account the money reached or left. */
  bankAccountId: number;
  /** The document's currency and amount (gross, 2 decimals) and the rate it was booked at. */
  currency: CurrencyCode;
  originalAmount: string;
  bookedRate: string;
  /** The books' currency. */
  base: CurrencyCode;
  /**
   * What reached or left the bank in the books' currency, 2 decimals; absent or null: the booked
   * amount (no exchange difference). Only a document in another currency may differ.
   */
  settledBase?: string | null | undefined;
  /**
   * The last part of a document paid in parts (issue 14 §3): what is left of it on the document
   * account in the books' currency, so the account goes back to exactly zero although each part was
   * rounded to the cent on its own. Absent: `originalAmount` × `bookedRate`.
   */
  bookedBase?: string | null | undefined;
  /** Request field that carries `settledBase`, for the 400 it may cause. */
  field: string;
  description?: string | null | undefined;
}

/**
 * The two or three postings of a settlement, in the books' currency to the cent:
 * - receivable: debit bank `settledBase` / credit the receivable at the booked amount;
 * - payable: debit the liability at the booked amount / credit bank `settledBase`;
 * - the difference: debit 6942 Kursverluste or credit 6952 Kursgewinne (Swiss SME chart; created on
 *   first use), so the document account goes back to exactly zero and the bank line equals the bank.
 * Foreign-currency lines keep the document's currency and amount, the bank line at the settlement's
 * own rate. 400 on `field` when a document in the books' currency is settled for another amount, or
 * when the difference exceeds 25 % of the booked amount (a typo far more often than a market move).
 */
export async function settlementPostings(tx: Tx, instanceId: string, s: Settlement): Promise<PostingInput[]> {
  const foreign = s.currency !== s.base;
  const booked = foreign ? (s.bookedBase != null ? toFixedAmount(s.bookedBase) : toBaseAmount(s.originalAmount, s.bookedRate)) : toFixedAmount(s.originalAmount);
  // The rest of a document paid in parts may be a cent off its own conversion: its rate is the one that gives the rest exactly.
  const documentRate = foreign && booked !== toBaseAmount(s.originalAmount, s.bookedRate) ? settlementRate(s.originalAmount, booked) : s.bookedRate;
  const settled = s.settledBase == null ? booked : toFixedAmount(s.settledBase);
  if (!foreign && settled !== booked) {
    throw invalidField(s.field, `the document is in ${s.base}, the currency of the books: it is settled for its amount ${booked}`);
  }
  if (toMoney(settled).lte(0)) throw invalidField(s.field, 'must be greater than 0');
  if (isImplausibleFxDifference(booked, settled)) {
    throw invalidField(s.field, `${settled} ${s.base} is more than 25 % away from the booked ${booked} ${s.base}: check the amount`);
  }
  const [bankSide, documentSide]: [1 | -1, 1 | -1] = s.kind === 'receivable' ? [1, -1] : [-1, 1];
  const description = s.description ?? null;
  const documentLine: PostingInput = foreign
    ? documentRate === null
      ? { accountId: s.documentAccountId, direction: documentSide, amount: booked, description }
      : { accountId: s.documentAccountId, direction: documentSide, currency: s.currency, originalAmount: s.originalAmount, exchangeRate: documentRate, description }
    : { accountId: s.documentAccountId, direction: documentSide, amount: booked, description };
  let bankLine: PostingInput = { accountId: s.bankAccountId, direction: bankSide, amount: settled, description };
  if (foreign) {
    const rate = settled === booked ? documentRate : settlementRate(s.originalAmount, settled);
    // Beyond 10^8 units no 10-decimal rate converts exactly: the bank line then carries the amount alone.
    if (rate !== null) bankLine = { ...bankLine, currency: s.currency, originalAmount: s.originalAmount, exchangeRate: rate };
  }
  const lines = s.kind === 'receivable' ? [bankLine, documentLine] : [documentLine, bankLine];
  const difference = realizedFxDifference(s.kind, booked, settled);
  if (difference) {
    lines.push({
      accountId: await chartAccountId(tx, instanceId, difference.account, s.base),
      direction: difference.direction,
      amount: difference.amount,
      description: `Exchange difference ${s.currency} (booked ${booked}, settled ${settled} ${s.base})`,
    });
  }
  return lines;
}
