/**
 * Accounting checks (spec §2.2 `/accounting/checks`, issue 12 §2): what a Treuhänder looks at before
 * closing a period — each check a function of the ledger, most of them against the open documents
 * at the period end. The page, the API (`POST /api/accounting/checks`) and the closing wizard all
 * call `runChecks`, so they show the same result.
 *
 * Accounting is the lowest module and reads only its own tables; what the checks need of invoices,
 * bills and bank statements comes through `CheckSources`, implemented by the owning modules and
 * assembled in wiring/wiring.ts (the accounting routes' `checkSources` port).
 *
 * Amounts are compared exactly (decimal.js on NUMERIC text), in the books' currency. Balances come
 * from `selectTurnoversAt` (per-month table plus the postings of a partial month, one call for every
 * date the checks need); the other queries are index range scans (checks.sql.ts): no check loads
 * every posting.
 */
import { AccountFunctionType, AccountType, Money, SWISS_VAT_ACCOUNTS, addDays, formatDate, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError } from './accounting.errors.js';
import { dayBefore, selectTurnoversAt, type Turnover } from './balance.sql.js';
import { todayInSwitzerland } from './balance.service.js';
import {
  scanEntries,
  selectCheckAccounts,
  selectEntriesAfter,
  selectMonthDrift,
  selectPostingsFromOtherSources,
  selectSidePostingsFromOtherSources,
  type CheckAccount,
  type DateRange,
  type EntryScan,
  type PostingHead,
} from './checks.sql.js';
import { booksCurrency } from './ledger-account.service.js';
import { controlAccount, type ControlAccountKind } from './ledger.api.js';

export type CheckStatus = 'passed' | 'warning' | 'failed';

/** One offending item of a check: what it is, where to fix it, and its amount. */
export interface CheckItem {
  label: string;
  /** Web path of the page to look at (an entry, an account, an invoice, a bill, a reconciliation). */
  link: string | null;
  /** Decimal string, 2 decimals, in the instance currency (signed where the label says so); null when it has none. */
  amount: string | null;
}

export interface CheckResult {
  /** Stable key (e.g. 'receivables'). */
  key: string;
  /** Short English sentence: what is checked. */
  name: string;
  status: CheckStatus;
  /** What was found, naming accounts and amounts. */
  detail: string;
  /** At most 50, the offending ones (empty when passed). */
  items: CheckItem[];
}

export interface ChecksReport {
  dateFrom: string;
  dateTo: string;
  /** The worst status of all checks. */
  status: CheckStatus;
  checks: CheckResult[];
}

/** A document open at a date (an invoice not yet paid, a bill not yet paid), in the books' currency. */
export interface OpenDocument {
  /** e.g. "Invoice BILAN000042 Muster AG of 01.03.2025". */
  label: string;
  link: string | null;
  /** What the document still holds on its control account, 2 decimals, positive. */
  amount: string;
}

/** A bill or staff expense open at a date, with the liability account its booking credited. */
export interface OpenPayable extends OpenDocument {
  kind: 'bill' | 'expense';
  /** The liability account of its booking (2000, 2250); null: the control account of its kind. */
  accountId: number | null;
}

/** The last imported bank statement (camt.053 closing booked balance) of a ledger account. */
export interface BankStatement {
  accountId: number;
  /** Date of the closing balance, YYYY-MM-DD. */
  date: string;
  /** Signed closing balance (credit to us positive), 2 decimals, in the account's currency. */
  closingBalance: string;
  /** The statement's message id. */
  reference: string;
}

/** An imported bank line neither matched to a document nor booked. */
export interface UnreconciledBankLine {
  accountId: number;
  bookingDate: string;
  /** Counterparty and text. */
  label: string;
  /** Signed (money in positive), in `currency`. */
  amount: string;
  currency: string;
}

/** VAT of the documents of a period, in the books' currency. */
export interface DocumentsVat {
  /** 2 decimals. */
  amount: string;
  /** How many documents carry it. */
  documents: number;
}

/**
 * What the checks need of the modules above accounting (invoicing, payables, banking). Each
 * function runs in the checks' transaction.
 */
export interface CheckSources {
  /** Invoices open at `date`: sent on or before it and neither paid nor denied on or before it. */
  openInvoicesAt(tx: Tx, instanceId: string, date: string): Promise<OpenDocument[]>;
  /** Bills and staff expenses open at `date`: booked on or before it and not paid (nor the booking reversed) on or before it. */
  openPayablesAt(tx: Tx, instanceId: string, date: string): Promise<OpenPayable[]>;
  /** Per ledger account, its last imported statement with a closing balance dated on or before `date`. */
  lastStatementsAt(tx: Tx, instanceId: string, date: string): Promise<BankStatement[]>;
  /** Bank lines booked before `bookedBefore` still unmatched and unbooked: the oldest `limit`, and how many there are. */
  unreconciledBankLines(tx: Tx, instanceId: string, bookedBefore: string, limit: number): Promise<{ lines: UnreconciledBankLine[]; count: number }>;
  /** Output VAT of the invoices sent in the period (the credits their sent entries made on the VAT accounts). */
  salesVatOfPeriod(tx: Tx, instanceId: string, range: DateRange): Promise<DocumentsVat>;
  /** Input VAT of the bills and expenses booked in the period (the debits their bookings made on 1170/1171). */
  inputVatOfPeriod(tx: Tx, instanceId: string, range: DateRange): Promise<DocumentsVat>;
}

export type { DateRange } from './checks.sql.js';

/** Items per check (the contract's maximum). */
export const MAX_ITEMS = 50;

/**
 * Clearing and suspense accounts that should be empty at a period end, by number (Swiss SME chart,
 * Kontenrahmen KMU): 1090 Transferkonto / Lohndurchlaufkonto, 1091 Geldtransferkonto, 1099 Unklare
 * Beträge — clearing accounts many Swiss charts add to group 100 — and 2030 "Anzahlungen von
 * Kundinnen und Kunden" of /work/shared/data/swiss-sme-chart/chart-de.csv (the only one of them the
 * seeded chart has). Checked only when the instance's chart has them.
 */
export const SUSPENSE_ACCOUNTS: Readonly<Record<string, string>> = {
  '1090': 'a transfer or payroll clearing account',
  '1091': 'a money transfer clearing account',
  '1099': 'a suspense account for unclear amounts',
  '2030': 'customer prepayments: each should be for a delivery still owed and settled with its invoice',
};

/**
 * Input VAT accounts (Vorsteuer) bills post to (payables `inputVatAccountNumber`): 1170 on material
 * and services, 1171 on investments and other operating expenses.
 */
export const INPUT_VAT_ACCOUNTS: readonly string[] = ['1170', '1171'];

/**
 * Output VAT accounts (Geschuldete MWST) invoices post to: those with function type VAT and the VAT
 * accounts of the Swiss rates (2200 8.1 %, 2201 2.6 %, 2202 3.8 %, domain SWISS_VAT_ACCOUNTS). Not
 * the whole 2200–2209 range: 2206 is Verrechnungssteuer (withholding tax), not VAT.
 */
const OUTPUT_VAT_NUMBERS: readonly string[] = Object.values(SWISS_VAT_ACCOUNTS).flatMap((accounts) => (accounts.vat ? [accounts.vat.number] : []));

// journal_entry.source of the document postings each control account is fed by.
const INVOICE_SOURCES = ['invoice'];
const PAYABLE_SOURCES = ['bill', 'payment'];

const money = (value: string | Money) => new Money(value);
const ZERO: Turnover = { debit: '0', credit: '0' };
const balanceOf = (turnover: Turnover | undefined) => money((turnover ?? ZERO).debit).minus((turnover ?? ZERO).credit);
const fixed = (value: Money | string) => toFixedAmount(value);
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const entryLink = (id: number) => `/accounting/entry/${id}/detail`;
const accountLink = (id: number) => `/accounting/account/${id}/detail`;
const reconciliationLink = (id: number) => `/accounting/account/${id}/reconciliation`;

const STATUS_RANK: Record<CheckStatus, number> = { passed: 0, warning: 1, failed: 2 };

/** The worst of the statuses ('passed' for none). */
export function worstStatus(statuses: readonly CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((worst, status) => (STATUS_RANK[status] > STATUS_RANK[worst] ? status : worst), 'passed');
}

/** What every check reads: the period, the books' currency, the accounts and the balances. */
interface Context {
  tx: Tx;
  instanceId: string;
  sources: CheckSources;
  range: DateRange;
  currency: string;
  accounts: CheckAccount[];
  accountById: Map<number, CheckAccount>;
  /** Turnovers at dateTo. */
  atEnd: Map<number, Turnover>;
  /** Turnovers at the day before dateFrom. */
  beforeStart: Map<number, Turnover>;
  /** Turnovers at each statement date. */
  atDate: Map<string, Map<number, Turnover>>;
  statements: BankStatement[];
  /** Formats an amount with the books' currency: "CHF 1500.00". */
  amount: (value: Money | string) => string;
}

const accountName = (account: CheckAccount | undefined, id: number) => (account ? `${account.number} ${account.name}` : `account ${id}`);

/**
 * Runs every check for `period` (dateFrom ≤ dateTo, YYYY-MM-DD) in the caller's transaction and
 * answers them in a fixed order with the worst status overall. Read-only.
 */
export async function runChecks(tx: Tx, instanceId: string, sources: CheckSources, period: { dateFrom: string; dateTo: string }): Promise<ChecksReport> {
  const range: DateRange = { from: period.dateFrom, to: period.dateTo };
  const currency = await booksCurrency(tx, instanceId);
  const accounts = await selectCheckAccounts(tx, instanceId);
  const statements = await sources.lastStatementsAt(tx, instanceId, range.to);
  const statementDates = [...new Set(statements.map((statement) => statement.date))];
  // One call for every date: the period end, the day before its start and each statement's date.
  const dates = [range.to, dayBefore(range.from), ...statementDates];
  const turnovers = await selectTurnoversAt(tx, instanceId, dates);
  const context: Context = {
    tx,
    instanceId,
    sources,
    range,
    currency,
    accounts,
    accountById: new Map(accounts.map((account) => [account.id, account])),
    atEnd: turnovers[0]!,
    beforeStart: turnovers[1]!,
    atDate: new Map(statementDates.map((date, index) => [date, turnovers[index + 2]!])),
    statements,
    amount: (value) => `${currency} ${fixed(value)}`,
  };

  const checks: CheckResult[] = [];
  // One scan of the period's postings serves the entry checks (balanced, two postings, duplicates).
  const scan = await scanEntries(tx, instanceId, range, MAX_ITEMS, { twins: true });
  checks.push(entriesBalanced(context, scan));
  checks.push(trialBalanceCheck(context));
  checks.push(await periodBalances(context));
  checks.push(...(await controlAccountChecks(context)));
  checks.push(bankStatements(context));
  checks.push(await bankLinesUnreconciled(context));
  checks.push(suspenseAccounts(context));
  checks.push(await vat(context));
  checks.push(await futureEntries(context));
  checks.push(duplicateEntries(context, scan));
  checks.push(wrongSideBalances(context));
  return { dateFrom: range.from, dateTo: range.to, status: worstStatus(checks.map((check) => check.status)), checks };
}

const periodText = (range: DateRange) => `${formatDate(range.from)} to ${formatDate(range.to)}`;

function entriesBalanced({ range, amount }: Context, { unbalanced, short, entries, lines }: EntryScan): CheckResult {
  const base = { key: 'entries-balanced', name: 'Every journal entry balances with at least two postings.' };
  if (unbalanced.length === 0 && short.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: entries
        ? `${plural(entries, 'entry', 'entries')} with ${plural(lines, 'posting')} from ${periodText(range)}: each has debit = credit and at least two postings.`
        : `No entries from ${periodText(range)}.`,
      items: [],
    };
  }
  const items: CheckItem[] = [
    ...unbalanced.map((entry) => ({
      label: `Entry ${entry.id} of ${formatDate(entry.date)} "${entry.description}": debit − credit = ${amount(entry.difference)}`,
      link: entryLink(entry.id),
      amount: fixed(entry.difference),
    })),
    ...short.map((entry) => ({
      label: `Entry ${entry.id} of ${formatDate(entry.date)} "${entry.description}": ${plural(entry.lines, 'posting')}`,
      link: entryLink(entry.id),
      amount: null,
    })),
  ].slice(0, MAX_ITEMS);
  const parts = [
    unbalanced.length ? `${plural(unbalanced.length, 'entry', 'entries')} whose debit and credit differ` : '',
    short.length ? `${plural(short.length, 'entry', 'entries')} with fewer than two postings` : '',
  ].filter(Boolean);
  return {
    ...base,
    status: 'failed',
    detail: `From ${periodText(range)} there are ${parts.join(' and ')}: correct or delete them.`,
    items,
  };
}

function trialBalanceCheck({ atEnd, range, amount }: Context): CheckResult {
  let debit = money('0');
  let credit = money('0');
  for (const turnover of atEnd.values()) {
    debit = debit.plus(turnover.debit);
    credit = credit.plus(turnover.credit);
  }
  const base = { key: 'trial-balance', name: 'The trial balance sums to zero (debit total = credit total).', items: [] };
  return debit.eq(credit)
    ? { ...base, status: 'passed', detail: `At ${formatDate(range.to)} the debit total ${amount(debit)} equals the credit total.` }
    : {
        ...base,
        status: 'failed',
        detail: `At ${formatDate(range.to)} the debit total ${amount(debit)} differs from the credit total ${amount(credit)} by ${amount(debit.minus(credit))}.`,
      };
}

async function periodBalances({ tx, instanceId, range, amount, accountById }: Context): Promise<CheckResult> {
  const drift = await selectMonthDrift(tx, instanceId, range, MAX_ITEMS);
  const base = { key: 'period-balances', name: 'The month balances match the postings.' };
  if (drift.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: `For every account and month from ${formatDate(range.from).slice(3)} to ${formatDate(range.to).slice(3)} the stored month balance equals the sum of its postings.`,
      items: [],
    };
  }
  return {
    ...base,
    status: 'failed',
    detail: `${plural(drift.length, 'account month', 'account months')} of the stored month balances differ from the postings; the balances and reports read them, so they are wrong until the table is rebuilt.`,
    items: drift.map((row) => {
      const posted = money(row.postedDebit).minus(row.postedCredit);
      const stored = money(row.storedDebit).minus(row.storedCredit);
      return {
        label: `${accountName(accountById.get(row.accountId), row.accountId)} in ${row.period.slice(0, 7)}: postings ${amount(posted)}, month balance ${amount(stored)}`,
        link: accountLink(row.accountId),
        amount: fixed(posted.minus(stored)),
      };
    }),
  };
}

/** The control account of `kind`, or null when the chart has none. */
async function controlAccountOrNull(tx: Tx, instanceId: string, kind: ControlAccountKind): Promise<number | null> {
  try {
    return await controlAccount(tx, instanceId, kind);
  } catch (error) {
    if (error instanceof AccountingError && error.accountingCode === 'control_account_missing') return null;
    throw error;
  }
}

/** receivables, payables and staff-expenses. */
async function controlAccountChecks(context: Context): Promise<CheckResult[]> {
  const { tx, instanceId, sources, range } = context;
  const receivable = await controlAccountOrNull(tx, instanceId, 'receivable');
  const payable = await controlAccountOrNull(tx, instanceId, 'payable');
  const expenses = await controlAccountOrNull(tx, instanceId, 'expenses');
  const invoices = await sources.openInvoicesAt(tx, instanceId, range.to);
  const payables = await sources.openPayablesAt(tx, instanceId, range.to);
  // Each bill or expense counts on the account its booking credited (both on 2000 without a 2250).
  const onAccount = (accountId: number | null) =>
    payables.filter((bill) => (bill.accountId ?? (bill.kind === 'expense' ? expenses : payable)) === accountId);

  const results = [
    await controlAccountCheck(context, {
      key: 'receivables',
      name: 'Receivables agree with the open invoices.',
      accountId: receivable,
      side: 1,
      documents: invoices,
      what: { one: 'invoice', many: 'invoices' },
      sources: INVOICE_SOURCES,
    }),
    await controlAccountCheck(context, {
      key: 'payables',
      name: 'Payables agree with the open bills.',
      accountId: payable,
      side: -1,
      documents: onAccount(payable),
      what: payable === expenses ? { one: 'bill or expense', many: 'bills and expenses' } : { one: 'bill', many: 'bills' },
      sources: PAYABLE_SOURCES,
    }),
  ];
  if (expenses !== null && expenses === payable) {
    const account = context.accountById.get(expenses);
    results.push({
      key: 'staff-expenses',
      name: 'Expenses owed to staff agree with the open expenses.',
      status: 'passed',
      detail: `The chart has no separate account for expenses owed to staff (2250): expenses are booked on ${accountName(account, expenses)} and checked with the payables.`,
      items: [],
    });
  } else {
    results.push(
      await controlAccountCheck(context, {
        key: 'staff-expenses',
        name: 'Expenses owed to staff agree with the open expenses.',
        accountId: expenses,
        side: -1,
        documents: onAccount(expenses),
        what: { one: 'expense', many: 'expenses' },
        sources: PAYABLE_SOURCES,
      }),
    );
  }
  return results;
}

/**
 * A control account's balance at dateTo against the documents open then. `side` is the side the
 * documents hold it on (1: debit, receivables; -1: credit, liabilities). On a difference, the items
 * explain it: first the postings on the account that no document made (manual entries, imports,
 * bank lines booked against it), then the open documents.
 */
async function controlAccountCheck(
  context: Context,
  spec: {
    key: string;
    name: string;
    accountId: number | null;
    side: 1 | -1;
    documents: readonly OpenDocument[];
    what: { one: string; many: string };
    sources: readonly string[];
  },
): Promise<CheckResult> {
  const { tx, instanceId, range, amount, accountById, atEnd } = context;
  const base = { key: spec.key, name: spec.name };
  const open = spec.documents.reduce((sum, document) => sum.plus(document.amount), money('0'));
  const count = plural(spec.documents.length, spec.what.one, spec.what.many);
  const documentItems = (documents: readonly OpenDocument[]) =>
    documents.map((document): CheckItem => ({ label: document.label, link: document.link, amount: fixed(document.amount) }));
  if (spec.accountId === null) {
    return spec.documents.length === 0
      ? { ...base, status: 'passed', detail: `The chart has no account for these documents, and no ${spec.what.one} is open at ${formatDate(range.to)}.`, items: [] }
      : {
          ...base,
          status: 'failed',
          detail: `${count} open at ${formatDate(range.to)} (${amount(open)}), but the chart has no control account to hold them.`,
          items: documentItems(spec.documents.slice(0, MAX_ITEMS)),
        };
  }
  const account = accountById.get(spec.accountId);
  const name = accountName(account, spec.accountId);
  // The balance on the documents' side: a receivable's debit balance, a liability's credit balance.
  const balance = balanceOf(atEnd.get(spec.accountId)).times(spec.side);
  const sideWord = spec.side === 1 ? 'debit' : 'credit';
  if (balance.eq(open)) {
    return {
      ...base,
      status: 'passed',
      detail: spec.documents.length
        ? `${name}: ${sideWord} balance ${amount(balance)} at ${formatDate(range.to)} equals the ${count} open then.`
        : `${name}: balance ${amount(balance)} at ${formatDate(range.to)}, and no ${spec.what.one} is open then.`,
      items: [],
    };
  }
  const difference = balance.minus(open);
  const other = await selectPostingsFromOtherSources(tx, instanceId, spec.accountId, range.to, spec.sources, MAX_ITEMS, balanceOf(atEnd.get(spec.accountId)).toFixed());
  const otherSum = money(other.sum).times(spec.side);
  const explanation = other.count
    ? ` Postings on ${account?.number ?? name} that no ${spec.what.one} made add up to ${amount(otherSum)} (${plural(other.count, 'posting')})${otherSum.eq(difference) ? ', which is the difference' : ''}; they are listed first, then the open ${spec.what.many}.`
    : ` Every posting on ${account?.number ?? name} comes from the ${spec.what.many}; the open ${spec.what.many} are listed.`;
  const postingItems = other.postings.map(
    (posting: PostingHead): CheckItem => ({
      label: `Entry ${posting.entryId} of ${formatDate(posting.date)} (${posting.source}): "${posting.description}"`,
      link: entryLink(posting.entryId),
      amount: fixed(money(posting.amount).times(spec.side)),
    }),
  );
  return {
    ...base,
    status: 'failed',
    detail:
      `${name}: ${sideWord} balance ${amount(balance)} at ${formatDate(range.to)}, but ` +
      `${spec.documents.length ? `the ${count} open then come to ${amount(open)}` : `no ${spec.what.one} is open then`}: ` +
      `a difference of ${amount(difference)}.${explanation}`,
    items: [...postingItems, ...documentItems(spec.documents)].slice(0, MAX_ITEMS),
  };
}

function bankStatements({ statements, atDate, accounts, accountById, range, amount }: Context): CheckResult {
  const base = { key: 'bank-statements', name: "Each bank account's balance agrees with its last bank statement." };
  const withStatement = new Set(statements.map((statement) => statement.accountId));
  const without = accounts.filter((account) => account.functionTypeId === AccountFunctionType.bankAccount && !withStatement.has(account.id));
  const names = without.map((account) => `${account.number} ${account.name}`).join(', ');
  const withoutText = without.length ? ` No statement imported on or before ${formatDate(range.to)} for ${names}.` : '';
  if (statements.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: `No bank statement (camt.053) with a closing balance was imported up to ${formatDate(range.to)}${without.length ? ` for ${names}` : ''}: nothing to compare.`,
      items: [],
    };
  }
  const compared = statements
    .map((statement) => {
      const ledger = balanceOf(atDate.get(statement.date)?.get(statement.accountId));
      return { statement, ledger, difference: money(statement.closingBalance).minus(ledger), account: accountById.get(statement.accountId) };
    })
    .sort((a, b) => (a.account?.number ?? '').localeCompare(b.account?.number ?? ''));
  const differing = compared.filter((row) => !row.difference.isZero());
  const describe = (row: (typeof compared)[number]) =>
    `${accountName(row.account, row.statement.accountId)}: statement of ${formatDate(row.statement.date)} ${amount(row.statement.closingBalance)}, ledger ${amount(row.ledger)}`;
  if (differing.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: `${compared.map((row) => `${row.account?.number ?? row.statement.accountId} agrees with its statement of ${formatDate(row.statement.date)} (${amount(row.ledger)})`).join('; ')}.${withoutText}`,
      items: [],
    };
  }
  return {
    ...base,
    status: 'failed',
    detail:
      `${differing.map((row) => `${describe(row)}: difference ${amount(row.difference)}`).join('; ')}. ` +
      `Book the missing bank lines on the reconciliation page or find the posting on the wrong date or account.${withoutText}`,
    items: differing.map((row) => ({ label: describe(row), link: reconciliationLink(row.statement.accountId), amount: fixed(row.difference) })),
  };
}

async function bankLinesUnreconciled({ tx, instanceId, sources, range, currency, accountById }: Context): Promise<CheckResult> {
  const before = addDays(range.to, -30);
  const { lines, count } = await sources.unreconciledBankLines(tx, instanceId, before, MAX_ITEMS);
  const base = { key: 'bank-lines-unreconciled', name: 'Bank lines are reconciled within 30 days.' };
  if (count === 0) {
    return { ...base, status: 'passed', detail: `Every bank line booked before ${formatDate(before)} (30 days before ${formatDate(range.to)}) is matched or booked.`, items: [] };
  }
  const accountIds = [...new Set(lines.map((line) => line.accountId))];
  return {
    ...base,
    status: 'warning',
    detail:
      `${plural(count, 'bank line')} booked before ${formatDate(before)} ${count === 1 ? 'is' : 'are'} still neither matched to an invoice or bill nor booked` +
      ` (${accountIds.map((id) => accountName(accountById.get(id), id)).join(', ')}): reconcile them on the account's reconciliation page.`,
    items: lines.map((line) => ({
      label: `${accountById.get(line.accountId)?.number ?? line.accountId}: ${formatDate(line.bookingDate)} ${line.label}${line.currency === currency ? '' : ` (${line.currency} ${fixed(line.amount)})`}`,
      link: reconciliationLink(line.accountId),
      amount: line.currency === currency ? fixed(line.amount) : null,
    })),
  };
}

function suspenseAccounts({ accounts, atEnd, range, amount }: Context): CheckResult {
  const base = { key: 'suspense-accounts', name: 'Clearing and suspense accounts are cleared.' };
  const present = accounts.filter((account) => SUSPENSE_ACCOUNTS[account.number] !== undefined);
  if (present.length === 0) {
    return { ...base, status: 'passed', detail: `The chart has none of the clearing accounts ${Object.keys(SUSPENSE_ACCOUNTS).join(', ')}.`, items: [] };
  }
  const open = present.map((account) => ({ account, balance: balanceOf(atEnd.get(account.id)) })).filter((row) => !row.balance.isZero());
  if (open.length === 0) {
    return { ...base, status: 'passed', detail: `${present.map((account) => account.number).join(', ')} ${present.length === 1 ? 'is' : 'are'} zero at ${formatDate(range.to)}.`, items: [] };
  }
  return {
    ...base,
    status: 'warning',
    detail: `${open.map(({ account, balance }) => `${account.number} ${account.name} holds ${amount(balance)} (debit positive), ${SUSPENSE_ACCOUNTS[account.number]}`).join('; ')}. Clear them to the accounts they belong to before closing.`,
    items: open.map(({ account, balance }) => ({ label: `${account.number} ${account.name}`, link: accountLink(account.id), amount: fixed(balance) })),
  };
}

/**
 * The VAT accounts against the VAT of the period's documents. Only the side documents post on is
 * compared: credits to the output VAT accounts vs the VAT of the invoices sent in the period, debits
 * to the input VAT accounts vs the VAT of the bills and expenses booked in it. So the VAT payments
 * and the quarterly settlement (debit output VAT, credit input VAT) and the reversals of denied
 * invoices or cancelled bills do not count. What remains is VAT posted by hand or by an import, which
 * the VAT return must include too: a warning, with those postings listed (the VAT issue refines this).
 */
async function vat(context: Context): Promise<CheckResult> {
  const { tx, instanceId, sources, range, accounts, atEnd, beforeStart, amount } = context;
  const base = { key: 'vat', name: 'The VAT accounts agree with the VAT of the invoices and bills.' };
  const output = accounts.filter((account) => account.functionTypeId === AccountFunctionType.vat || OUTPUT_VAT_NUMBERS.includes(account.number));
  const input = accounts.filter((account) => INPUT_VAT_ACCOUNTS.includes(account.number));
  const turnover = (list: CheckAccount[], side: 'debit' | 'credit') =>
    list.reduce((sum, account) => sum.plus((atEnd.get(account.id) ?? ZERO)[side]).minus((beforeStart.get(account.id) ?? ZERO)[side]), money('0'));
  const outputLedger = turnover(output, 'credit');
  const inputLedger = turnover(input, 'debit');
  const salesVat = await sources.salesVatOfPeriod(tx, instanceId, range);
  const inputVat = await sources.inputVatOfPeriod(tx, instanceId, range);
  const numbers = (list: CheckAccount[]) => (list.length ? list.map((account) => account.number).join(', ') : 'no account');
  const outputText = `Output VAT credited to ${numbers(output)}: ${amount(outputLedger)}; VAT of the ${plural(salesVat.documents, 'invoice')} sent: ${amount(salesVat.amount)}.`;
  const inputText = `Input VAT debited to ${numbers(input)}: ${amount(inputLedger)}; VAT of the ${plural(inputVat.documents, 'bill or expense', 'bills and expenses')} booked: ${amount(inputVat.amount)}.`;
  const outputDiff = outputLedger.minus(salesVat.amount);
  const inputDiff = inputLedger.minus(inputVat.amount);
  const intro = `From ${periodText(range)}: ${outputText} ${inputText}`;
  if (outputDiff.isZero() && inputDiff.isZero()) {
    return { ...base, status: 'passed', detail: `${intro} Both agree (VAT payments and settlements are not compared).`, items: [] };
  }
  const items: CheckItem[] = [];
  const differences: string[] = [];
  const list = async (accountList: CheckAccount[], direction: 1 | -1, documentSources: readonly string[]) => {
    const found = await selectSidePostingsFromOtherSources(tx, instanceId, accountList.map((account) => account.id), range, direction, documentSources, MAX_ITEMS - items.length);
    for (const posting of found.postings) {
      items.push({
        label: `Entry ${posting.entryId} of ${formatDate(posting.date)} (${posting.source}) on ${context.accountById.get(posting.accountId)?.number ?? posting.accountId}: "${posting.description}"`,
        link: entryLink(posting.entryId),
        amount: fixed(posting.amount),
      });
    }
    return found;
  };
  if (!outputDiff.isZero()) {
    const found = await list(output, -1, INVOICE_SOURCES);
    differences.push(`output VAT differs by ${amount(outputDiff)} (${plural(found.count, 'posting')} not made by invoices, ${amount(found.sum)})`);
  }
  if (!inputDiff.isZero()) {
    const found = await list(input, 1, PAYABLE_SOURCES);
    differences.push(`input VAT differs by ${amount(inputDiff)} (${plural(found.count, 'posting')} not made by bills, ${amount(found.sum)})`);
  }
  return {
    ...base,
    status: 'warning',
    detail: `${intro} The ${differences.join('; the ')}: make sure the VAT return includes what was posted by hand.`,
    items,
  };
}

async function futureEntries({ tx, instanceId, amount }: Context): Promise<CheckResult> {
  const today = todayInSwitzerland();
  const { entries, count } = await selectEntriesAfter(tx, instanceId, today, MAX_ITEMS);
  const base = { key: 'future-entries', name: 'No journal entry is dated after today.' };
  if (count === 0) return { ...base, status: 'passed', detail: `No entry is dated after today (${formatDate(today)}).`, items: [] };
  return {
    ...base,
    status: 'warning',
    detail: `${plural(count, 'entry', 'entries')} ${count === 1 ? 'is' : 'are'} dated after today (${formatDate(today)}), the first on ${formatDate(entries[0]!.date)}: a mistyped year? They count in every balance from their date on.`,
    items: entries.map((entry) => ({
      label: `Entry ${entry.id} of ${formatDate(entry.date)}: "${entry.description}" (${amount(entry.total)})`,
      link: entryLink(entry.id),
      amount: fixed(entry.total),
    })),
  };
}

function duplicateEntries({ range }: Context, { duplicates: groups, duplicateCount: count }: EntryScan): CheckResult {
  const base = { key: 'duplicate-entries', name: 'No journal entry is booked twice.' };
  if (count === 0) {
    return { ...base, status: 'passed', detail: `No two entries from ${periodText(range)} share date, amount and text.`, items: [] };
  }
  return {
    ...base,
    status: 'warning',
    detail: `${plural(count, 'entry', 'entries')} from ${periodText(range)} share date, amount and text with another (${plural(groups.length, 'group')}${count > MAX_ITEMS ? ' among the first listed' : ''}): check whether one was booked twice.`,
    items: groups.flat().map((entry) => ({
      label: `Entry ${entry.id} of ${formatDate(entry.date)}: "${entry.description}"`,
      link: entryLink(entry.id),
      amount: fixed(entry.total),
    })),
  };
}

/** Cash and bank: asset accounts of group 100 "Flüssige Mittel" and the bank accounts. */
const isCash = (account: CheckAccount) =>
  account.typeId === AccountType.assets && (account.functionTypeId === AccountFunctionType.bankAccount || account.group === '100');

function wrongSideBalances({ accounts, atEnd, range, amount }: Context): CheckResult {
  const base = { key: 'wrong-side-balances', name: 'Cash, bank and liability accounts have their balance on the expected side.' };
  const wrong = accounts.flatMap((account) => {
    const balance = balanceOf(atEnd.get(account.id));
    if (isCash(account) && balance.isNegative()) return [{ account, balance, why: 'cash or bank with a credit balance' }];
    if (account.typeId === AccountType.liability && balance.gt(0)) return [{ account, balance, why: 'liability with a debit balance' }];
    return [];
  });
  if (wrong.length === 0) {
    return { ...base, status: 'passed', detail: `At ${formatDate(range.to)} no cash or bank account has a credit balance and no liability a debit balance.`, items: [] };
  }
  return {
    ...base,
    status: 'warning',
    detail: `At ${formatDate(range.to)}: ${wrong.map(({ account, balance, why }) => `${account.number} ${account.name} ${amount(balance)} (${why})`).join('; ')}. A negative cash balance is impossible and a bank overdraft belongs on a liability account; a liability in debit is usually a payment booked twice or on the wrong account.`,
    items: wrong.slice(0, MAX_ITEMS).map(({ account, balance, why }) => ({ label: `${account.number} ${account.name}: ${why}`, link: accountLink(account.id), amount: fixed(balance) })),
  };
}
