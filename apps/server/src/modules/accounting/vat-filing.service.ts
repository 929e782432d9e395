/**
 * VAT returns of periods (issue 13 §3, decision 020): the return of a period as the books stand,
 * corrections (typeOfSubmission 2: books minus what was filed for the period) and the yearly
 * reconciliation (3: books of the year minus the year's filed returns), the periods with their
 * status, and filing: the return is stored, the settlement entry moves the VAT accounts to the
 * settlement account, and the period end is locked — one transaction, once per period even under
 * parallel requests (the settings row is locked first; 409 already_done for a repeat).
 */
import {
  addVatFigures,
  isVatPeriod,
  isZeroVatFigures,
  Money,
  subtractVatFigures,
  toFixedAmount,
  toMoney,
  vatPayable,
  vatPeriodOf,
  vatPeriodsOfYear,
  VatSubmissionType,
  formatDate,
  type VatFigures,
  type VatPeriod,
  type VatSubmissionTypeId,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone, conflict } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import { AccountingError, invalidField, notFoundError } from './accounting.errors.js';
import type { DocumentResolver } from './document-posting.js';
import { todayInSwitzerland } from './balance.service.js';
import { postJournalEntry, type PostingInput } from './journal-entry.service.js';
import { firstOpenDate } from './ledger.api.js';
import { booksCurrency, chartAccountId } from './ledger-account.service.js';
import { selectLedgerAccountHeads } from './ledger-account.sql.js';
import { ensureAccountingLock } from './lock.service.js';
import { computeVatBooks, reconcileVat, type VatReconciliation, type VatReturnRules } from './vat-return.service.js';
import { DEFAULT_SETTLEMENT_ACCOUNT, requireVatSettings, type VatActor, type VatSettings } from './vat-settings.service.js';
import { insertVatReturn, selectOverlappingVatReturns, selectVatReturn, selectVatReturns, type VatAccountAmount, type VatReturnRow } from './vat.sql.js';

/** Where the net tax rate method books the difference between the tax booked at the legal rates and the tax due (Swiss SME chart). */
export const NET_RATE_DIFFERENCE_ACCOUNT = { number: '3809', name: 'MWST - nur Saldosteuersatz' } as const;
/** The source of settlement entries; the document that posted them is the filed return. */
export const VAT_SOURCE = 'vat';

export interface VatReturnRequest {
  dateFrom: string;
  dateTo: string;
  typeOfSubmission: VatSubmissionTypeId;
}

/** A filed return as listed. */
export interface VatReturnSummary {
  id: number;
  dateFrom: string;
  dateTo: string;
  typeOfSubmission: VatSubmissionTypeId;
  method: VatReturnRow['method'];
  basis: VatReturnRow['basis'];
  /** 500 − 510 of the filed figures. */
  payable: string;
  lockDate: string;
  settlementEntry: { id: number } | null;
  filedAt: string;
  filedBy: { id: string } | null;
}

export const toSummary = (row: VatReturnRow): VatReturnSummary => ({
  id: row.id,
  dateFrom: row.dateFrom,
  dateTo: row.dateTo,
  typeOfSubmission: row.typeOfSubmission,
  method: row.method,
  basis: row.basis,
  payable: vatPayable(row.figures),
  lockDate: row.lockDate,
  settlementEntry: row.settlementEntryId === null ? null : { id: row.settlementEntryId },
  filedAt: row.filedAt,
  filedBy: row.filedBy === null ? null : { id: row.filedBy },
});

/** The return of a request, ready to show, export or file. */
export interface VatReturn {
  dateFrom: string;
  dateTo: string;
  label: string;
  typeOfSubmission: VatSubmissionTypeId;
  method: VatSettings['method'];
  basis: VatSettings['basis'];
  vatNumber: string;
  /** What this return reports: the books (1), or the books minus what was filed (2, 3). */
  figures: VatFigures;
  /** The books of the period (2, 3: beside what was filed). */
  books: VatFigures;
  filed: VatFigures | null;
  /** What the settlement entry moves (the difference for 2 and 3). */
  settlement: {
    accounts: { account: { id: number; number: string; name: string }; amount: string }[];
    settlementAccount: VatSettings['settlementAccount'];
    payable: string;
  };
  reconciliation: VatReconciliation;
  /** The returns filed for this period (for a year: all within it). */
  returns: VatReturnSummary[];
  /** 'filed' once an original (or, for the year, its reconciliation) is filed. */
  status: 'open' | 'filed';
}

const rulesOf = (settings: VatSettings): VatReturnRules => ({ method: settings.method, basis: settings.basis, netTaxRates: settings.netTaxRates });

/** "Q1 2024" for a period of the settings, "2024" for a calendar year, else the two dates. */
export function periodLabel(settings: Pick<VatSettings, 'period' | 'registrationDate'>, dateFrom: string, dateTo: string): string {
  const period = vatPeriodOf(settings.period, dateFrom, settings.registrationDate);
  if (period && period.dateFrom === dateFrom && period.dateTo === dateTo) return period.label;
  if (dateFrom.endsWith('-01-01') && dateTo === `${dateFrom.slice(0, 4)}-12-31`) return dateFrom.slice(0, 4);
  return `${formatDate(dateFrom)}–${formatDate(dateTo)}`;
}

const sumAccounts = (lists: VatAccountAmount[][], sign = 1): Map<number, Money> => {
  const total = new Map<number, Money>();
  for (const list of lists) for (const a of list) total.set(a.accountId, (total.get(a.accountId) ?? new Money(0)).plus(toMoney(a.amount).times(sign)));
  return total;
};

/** The calendar year of `dateFrom` cut to the registration: 400 on `dateFrom` when the range is not one. */
function assertYear(settings: VatSettings, dateFrom: string, dateTo: string): void {
  const year = dateFrom.slice(0, 4);
  const start = settings.registrationDate > `${year}-01-01` ? settings.registrationDate : `${year}-01-01`;
  if (dateFrom !== start || dateTo !== `${year}-12-31`) {
    throw invalidField('dateFrom', `the yearly reconciliation covers a calendar year: ${start} to ${year}-12-31`);
  }
}

/**
 * The return of `request` as the books stand (200). Type 1: the period's figures. Type 2: the
 * books minus the period's filed returns (409 vat_return_not_filed without an original). Type 3:
 * the calendar year's books minus every return filed within it (400 when the range is not a year;
 * 409 without a filed original in the year).
 */
export async function prepareVatReturn(tx: Tx, instanceId: string, settings: VatSettings, request: VatReturnRequest): Promise<VatReturn> {
  const { dateFrom, dateTo, typeOfSubmission } = request;
  if (dateFrom > dateTo) throw invalidField('dateTo', 'must not be before dateFrom');
  if (typeOfSubmission === VatSubmissionType.yearly) assertYear(settings, dateFrom, dateTo);
  const rules = rulesOf(settings);
  const books = await computeVatBooks(tx, instanceId, rules, dateFrom, dateTo);
  const returns = typeOfSubmission === VatSubmissionType.yearly ? await selectVatReturns(tx, instanceId, { dateFrom, dateTo }) : (await selectOverlappingVatReturns(tx, instanceId, dateFrom, dateTo)).filter((r) => r.dateFrom === dateFrom && r.dateTo === dateTo);
  let figures = books.figures;
  let filed: VatFigures | null = null;
  let accounts = books.accounts;
  if (typeOfSubmission !== VatSubmissionType.original) {
    const counted = returns;
    if (!counted.some((r) => r.typeOfSubmission === VatSubmissionType.original)) {
      const what = typeOfSubmission === VatSubmissionType.correction ? 'a correction' : 'the yearly reconciliation';
      throw new AccountingError('vat_return_not_filed', `no return has been filed for ${periodLabel(settings, dateFrom, dateTo)}: ${what} corrects filed returns`);
    }
    filed = addVatFigures(settings.method, counted.map((r) => r.figures));
    figures = subtractVatFigures(books.figures, filed);
    const difference = sumAccounts([books.accounts]);
    for (const [accountId, amount] of sumAccounts(counted.map((r) => r.accounts), -1)) difference.set(accountId, (difference.get(accountId) ?? new Money(0)).plus(amount));
    accounts = [...difference.entries()].filter(([, amount]) => !amount.isZero()).map(([accountId, amount]) => ({ accountId, amount: toFixedAmount(amount) }));
  }
  const heads = new Map((await selectLedgerAccountHeads(tx, instanceId, accounts.map((a) => a.accountId))).map((head) => [head.id, head]));
  const status =
    typeOfSubmission === VatSubmissionType.yearly
      ? returns.some((r) => r.typeOfSubmission === VatSubmissionType.yearly)
        ? 'filed'
        : 'open'
      : returns.some((r) => r.typeOfSubmission === VatSubmissionType.original)
        ? 'filed'
        : 'open';
  return {
    dateFrom,
    dateTo,
    label: periodLabel(settings, dateFrom, dateTo),
    typeOfSubmission,
    method: settings.method,
    basis: settings.basis,
    vatNumber: settings.vatNumber,
    figures,
    books: books.figures,
    filed,
    settlement: {
      accounts: accounts.map((a) => ({ account: { id: a.accountId, number: heads.get(a.accountId)?.number ?? '', name: heads.get(a.accountId)?.name ?? '' }, amount: a.amount })),
      settlementAccount: settings.settlementAccount,
      payable: vatPayable(figures),
    },
    reconciliation: await reconcileVat(tx, instanceId, dateFrom, dateTo, books),
    returns: returns.map(toSummary),
    status,
  };
}

/** The return of `request` for the instance (409 vat_settings_missing before the settings exist). */
export async function getVatReturn(tx: Tx, instanceId: string, request: VatReturnRequest): Promise<VatReturn> {
  return prepareVatReturn(tx, instanceId, await requireVatSettings(tx, instanceId), request);
}

/**
 * The settlement entry of a return: each VAT account is emptied of what the return accounts for on
 * it (debit a tax due, credit an input tax) against the settlement account; the net tax rate method
 * credits the settlement account with the tax due (399) and books the difference to the tax booked
 * at the legal rates on 3809 "MWST - nur Saldosteuersatz". Null when there is nothing to move.
 */
async function postSettlement(
  tx: Tx,
  instanceId: string,
  actor: VatActor,
  settings: VatSettings,
  vatReturn: VatReturn,
  returnId: number,
  amounts: VatAccountAmount[],
): Promise<number | null> {
  const currency = await booksCurrency(tx, instanceId);
  const lines: PostingInput[] = [];
  let moved = new Money(0);
  for (const { accountId, amount } of amounts) {
    const value = toMoney(amount);
    if (value.isZero()) continue;
    lines.push({ accountId, direction: value.gt(0) ? 1 : -1, amount: toFixedAmount(value.abs()), description: null });
    moved = moved.plus(value);
  }
  // The settlement account takes what the VAT accounts held; the net tax rate method owes 399 instead.
  const owed = settings.method === 'net' ? toMoney(vatPayable(vatReturn.figures)) : moved;
  if (!owed.isZero()) {
    const settlementId = settings.settlementAccount.id ?? (await chartAccountId(tx, instanceId, DEFAULT_SETTLEMENT_ACCOUNT, currency));
    lines.push({ accountId: settlementId, direction: owed.gt(0) ? -1 : 1, amount: toFixedAmount(owed.abs()), description: 'ESTV' });
  }
  const difference = moved.minus(owed);
  if (!difference.isZero()) {
    lines.push({
      accountId: await chartAccountId(tx, instanceId, NET_RATE_DIFFERENCE_ACCOUNT, currency),
      direction: difference.gt(0) ? -1 : 1,
      amount: toFixedAmount(difference.abs()),
      description: 'Net tax rate: tax booked at the legal rates minus tax due',
    });
  }
  if (lines.length < 2) return null;
  const kind = vatReturn.typeOfSubmission === 1 ? 'VAT return' : vatReturn.typeOfSubmission === 2 ? 'VAT correction' : 'VAT yearly reconciliation';
  return postJournalEntry(tx, instanceId, actor.userId, {
    // On the period's last day, or on the first open day when the books are locked beyond it already.
    dateLedger: await firstOpenDate(tx, instanceId, vatReturn.dateTo),
    description: `${kind} ${vatReturn.label}: settlement`,
    source: VAT_SOURCE,
    sourceRef: String(returnId),
    lines,
  });
}

/**
 * Files the return of `request` (owner and admin): stores its figures, books the settlement entry
 * and locks the period end (the lock service), all in the caller's transaction. The settings row
 * is locked first, so parallel filings run one after the other:
 * - type 1: the period must be one of the settings (400 on `dateFrom`) and ended (400 on
 *   `dateTo`); 409 already_done when its original is filed, 409 when another filed return overlaps;
 * - type 2: 409 already_done when the books equal what was filed (nothing to correct);
 * - type 3: 409 already_done when the year's reconciliation is filed.
 */
export async function fileVatReturn(tx: Tx, instanceId: string, request: VatReturnRequest, actor: VatActor): Promise<{ vatReturn: VatReturn; filed: VatReturnSummary }> {
  const settings = await requireVatSettings(tx, instanceId, true);
  const { dateFrom, dateTo, typeOfSubmission } = request;
  const label = periodLabel(settings, dateFrom, dateTo);
  if (typeOfSubmission === VatSubmissionType.original && !isVatPeriod(settings.period, dateFrom, dateTo, settings.registrationDate)) {
    const period = vatPeriodOf(settings.period, dateFrom, settings.registrationDate);
    throw invalidField('dateFrom', period ? `not a ${settings.period} VAT period: ${period.label} runs from ${period.dateFrom} to ${period.dateTo}` : `before the VAT registration (${settings.registrationDate})`);
  }
  if (dateTo > todayInSwitzerland()) throw invalidField('dateTo', `the period ends on ${dateTo}: a return is filed once its period has ended`);
  const overlapping = await selectOverlappingVatReturns(tx, instanceId, dateFrom, dateTo);
  if (typeOfSubmission === VatSubmissionType.original) {
    const same = overlapping.find((r) => r.typeOfSubmission === VatSubmissionType.original && r.dateFrom === dateFrom && r.dateTo === dateTo);
    if (same) throw alreadyDone(`the VAT return ${label} was filed on ${same.filedAt.slice(0, 10)}: file a correction for changes`, { dateFrom: 'already filed' });
    const other = overlapping.find((r) => r.typeOfSubmission === VatSubmissionType.original);
    if (other) throw conflict(`the filed VAT return ${formatDate(other.dateFrom)}–${formatDate(other.dateTo)} overlaps ${label}`, { dateFrom: 'overlaps a filed return' });
  }
  if (typeOfSubmission === VatSubmissionType.yearly && overlapping.some((r) => r.typeOfSubmission === VatSubmissionType.yearly && r.dateFrom === dateFrom)) {
    throw alreadyDone(`the yearly reconciliation ${label} is filed already`, { dateFrom: 'already filed' });
  }
  const vatReturn = await prepareVatReturn(tx, instanceId, settings, request);
  if (typeOfSubmission === VatSubmissionType.correction && isZeroVatFigures(vatReturn.figures)) {
    throw alreadyDone(`the filed returns of ${label} match the books: there is nothing to correct`, { dateFrom: 'nothing to correct' });
  }
  const [{ id }] = (await tx.query<{ id: number }>("SELECT next_ids($1, 'vat_return') AS id", [instanceId])) as [{ id: number }];
  const amounts = vatReturn.settlement.accounts.map((a) => ({ accountId: a.account.id, amount: a.amount }));
  const settlementEntryId = await postSettlement(tx, instanceId, actor, settings, vatReturn, id, amounts);
  const lock = await ensureAccountingLock(tx, instanceId, dateTo, actor);
  const row = await insertVatReturn(tx, instanceId, {
    id,
    dateFrom,
    dateTo,
    typeOfSubmission,
    method: settings.method,
    basis: settings.basis,
    vatNumber: settings.vatNumber,
    figures: vatReturn.figures,
    accounts: amounts,
    lockDate: lock.lockDate,
    settlementEntryId,
    filedBy: actor.userId,
  });
  // The settings lock serialises filings; the unique keys of 0024 are the last line of defence.
  if (!row) throw alreadyDone(`the VAT return ${label} is filed already`, { dateFrom: 'already filed' });
  const filed = toSummary(row);
  await recordAudit(tx, { event: 'vat_return.filed', instanceId, userId: actor.userId, ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, detail: { vatReturn: filed } });
  return { vatReturn: { ...vatReturn, status: 'filed', returns: [...vatReturn.returns, filed] }, filed };
}

/** The filed return behind a settlement entry (source 'vat', source_ref its id), for the journal's document link. */
export const vatReturnDocument: DocumentResolver = async (tx, instanceId, entry) => {
  if (!entry.sourceRef || !/^\d{1,9}$/.test(entry.sourceRef)) return null;
  const row = await selectVatReturn(tx, instanceId, Number(entry.sourceRef));
  if (!row) return null;
  const kind = row.typeOfSubmission === 1 ? 'VAT return' : row.typeOfSubmission === 2 ? 'VAT correction' : 'VAT yearly reconciliation';
  return {
    type: 'vat return',
    reference: `${kind} ${formatDate(row.dateFrom)}–${formatDate(row.dateTo)}`,
    uuid: null,
    link: `/accounting/vat?${new URLSearchParams({ dateFrom: row.dateFrom, dateTo: row.dateTo })}`,
  };
};

/** A filed return by id (404 `vat_return_not_found`). */
export async function getFiledVatReturn(tx: Tx, instanceId: string, id: number): Promise<VatReturnRow> {
  const row = await selectVatReturn(tx, instanceId, id);
  if (!row) throw notFoundError('vat_return_not_found', 'VAT return', id);
  return row;
}

export interface VatPeriodStatus extends VatPeriod {
  status: 'open' | 'filed';
  returns: VatReturnSummary[];
}

/**
 * The reporting periods of `year` (default: the current year) by the settings, each with its status
 * and filed returns, the year itself (its yearly reconciliation), and the years from the
 * registration to today.
 */
export async function listVatPeriods(tx: Tx, instanceId: string, year?: number): Promise<{ year: number; years: number[]; periods: VatPeriodStatus[]; yearly: VatPeriodStatus | null }> {
  const settings = await requireVatSettings(tx, instanceId);
  const today = todayInSwitzerland();
  const thisYear = Number(today.slice(0, 4));
  const first = Number(settings.registrationDate.slice(0, 4));
  const chosen = year ?? Math.max(first, thisYear);
  const all = await selectVatReturns(tx, instanceId);
  const last = Math.max(thisYear, first, ...all.map((r) => Number(r.dateTo.slice(0, 4))));
  const years = Array.from({ length: last - first + 1 }, (_, index) => first + index);
  const statusOf = (period: VatPeriod, yearly: boolean): VatPeriodStatus => {
    const returns = all.filter((r) => r.dateFrom === period.dateFrom && r.dateTo === period.dateTo && (r.typeOfSubmission === VatSubmissionType.yearly) === yearly);
    const filed = returns.some((r) => r.typeOfSubmission === (yearly ? VatSubmissionType.yearly : VatSubmissionType.original));
    return { ...period, status: filed ? 'filed' : 'open', returns: returns.map(toSummary) };
  };
  const periods = vatPeriodsOfYear(settings.period, chosen, settings.registrationDate).map((p) => statusOf(p, false));
  // Returns of other period lengths (the period setting changed) stay listed.
  for (const r of all) {
    if (r.typeOfSubmission === VatSubmissionType.yearly || Number(r.dateFrom.slice(0, 4)) !== chosen) continue;
    if (!periods.some((p) => p.dateFrom === r.dateFrom && p.dateTo === r.dateTo)) periods.push(statusOf({ dateFrom: r.dateFrom, dateTo: r.dateTo, label: periodLabel(settings, r.dateFrom, r.dateTo) }, false));
  }
  periods.sort((a, b) => a.dateFrom.localeCompare(b.dateFrom) || a.dateTo.localeCompare(b.dateTo));
  const yearStart = settings.registrationDate > `${chosen}-01-01` ? settings.registrationDate : `${chosen}-01-01`;
  const yearly = yearStart <= `${chosen}-12-31` ? statusOf({ dateFrom: yearStart, dateTo: `${chosen}-12-31`, label: String(chosen) }, true) : null;
  return { year: chosen, years, periods, yearly };
}
