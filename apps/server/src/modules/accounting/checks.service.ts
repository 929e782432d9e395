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
import { AccountFunctionType, AccountType, Money, SWISS_VAT_ACCOUNTS, DOCUMENT_LOCALES, addDays, formatAmountLocale, formatDate, toFixedAmount, type MessageLanguage } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { msg, sayIn, type Say } from '../../http/server-texts.js';
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
  /** Short sentence in the request's language (English by default): what is checked. */
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
 * function runs in the checks' transaction; `language` is the one the labels are written in
 * (English when not given).
 */
export interface CheckSources {
  /** Invoices open at `date`: sent on or before it and neither paid nor denied on or before it. */
  openInvoicesAt(tx: Tx, instanceId: string, date: string, language?: MessageLanguage): Promise<OpenDocument[]>;
  /** Bills and staff expenses open at `date`: booked on or before it and not paid (nor the booking reversed) on or before it. */
  openPayablesAt(tx: Tx, instanceId: string, date: string, language?: MessageLanguage): Promise<OpenPayable[]>;
  /** Per ledger account, its last imported statement with a closing balance dated on or before `date`. */
  lastStatementsAt(tx: Tx, instanceId: string, date: string): Promise<BankStatement[]>;
  /** Bank lines booked before `bookedBefore` still unmatched and unbooked: the oldest `limit`, and how many there are. */
  unreconciledBankLines(
    tx: Tx,
    instanceId: string,
    bookedBefore: string,
    limit: number,
    language?: MessageLanguage,
  ): Promise<{ lines: UnreconciledBankLine[]; count: number }>;
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
  '1090': msg('a transfer or payroll clearing account'),
  '1091': msg('a money transfer clearing account'),
  '1099': msg('a suspense account for unclear amounts'),
  '2030': msg('customer prepayments: each should be for a delivery still owed and settled with its invoice'),
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
  /** Formats an amount with the books' currency: "CHF 1500.00" in English, "CHF 1'500.00" in German. */
  amount: (value: Money | string) => string;
  /** Writes the texts in the request's language (http/server-texts.ts). */
  say: Say;
}

const accountName = (say: Say, account: CheckAccount | undefined, id: number) => (account ? `${account.number} ${account.name}` : say('account {{id}}', { id }));

/**
 * Runs every check for `period` (dateFrom ≤ dateTo, YYYY-MM-DD) in the caller's transaction and
 * answers them in a fixed order with the worst status overall. Read-only. Names, details and item
 * labels are written in `language` (English by default, the contract; keys and links are the same
 * in every language).
 */
export async function runChecks(
  tx: Tx,
  instanceId: string,
  sources: CheckSources,
  period: { dateFrom: string; dateTo: string },
  language: MessageLanguage = 'en',
): Promise<ChecksReport> {
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
    // English keeps the contract's plain figures; the other languages write them as their documents do (de-CH 2'469.00, fr-CH 2 469,00).
    amount: language === 'en' ? (value) => `${currency} ${fixed(value)}` : (value) => `${currency} ${formatAmountLocale(fixed(value), DOCUMENT_LOCALES[language])}`,
    say: sayIn(language),
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

const periodText = (say: Say, range: DateRange) => say('{{from}} to {{to}}', { from: formatDate(range.from), to: formatDate(range.to) });
const entriesText = (say: Say, count: number) => say.plural(count, '{{count}} entry', '{{count}} entries');
const postingsText = (say: Say, count: number) => say.plural(count, '{{count}} posting', '{{count}} postings');

function entriesBalanced({ range, amount, say }: Context, { unbalanced, short, entries, lines }: EntryScan): CheckResult {
  const base = { key: 'entries-balanced', name: say('Every journal entry balances with at least two postings.') };
  const period = periodText(say, range);
  if (unbalanced.length === 0 && short.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: entries
        ? say('{{entries}} with {{postings}} from {{period}}: each has debit = credit and at least two postings.', {
            entries: entriesText(say, entries),
            postings: postingsText(say, lines),
            period,
          })
        : say('No entries from {{period}}.', { period }),
      items: [],
    };
  }
  const items: CheckItem[] = [
    ...unbalanced.map((entry) => ({
      label: say('Entry {{id}} of {{date}} "{{description}}": debit − credit = {{difference}}', {
        id: entry.id,
        date: formatDate(entry.date),
        description: entry.description,
        difference: amount(entry.difference),
      }),
      link: entryLink(entry.id),
      amount: fixed(entry.difference),
    })),
    ...short.map((entry) => ({
      label: say('Entry {{id}} of {{date}} "{{description}}": {{postings}}', {
        id: entry.id,
        date: formatDate(entry.date),
        description: entry.description,
        postings: postingsText(say, entry.lines),
      }),
      link: entryLink(entry.id),
      amount: null,
    })),
  ].slice(0, MAX_ITEMS);
  const parts = [
    unbalanced.length ? say('{{entries}} whose debit and credit differ', { entries: entriesText(say, unbalanced.length) }) : '',
    short.length ? say('{{entries}} with fewer than two postings', { entries: entriesText(say, short.length) }) : '',
  ].filter(Boolean);
  const problems = parts.length === 2 ? say('{{first}} and {{second}}', { first: parts[0]!, second: parts[1]! }) : parts[0]!;
  return {
    ...base,
    status: 'failed',
    detail: say('From {{period}} there are {{problems}}: correct or delete them.', { period, problems }),
    items,
  };
}

function trialBalanceCheck({ atEnd, range, amount, say }: Context): CheckResult {
  let debit = money('0');
  let credit = money('0');
  for (const turnover of atEnd.values()) {
    debit = debit.plus(turnover.debit);
    credit = credit.plus(turnover.credit);
  }
  const base = { key: 'trial-balance', name: say('The trial balance sums to zero (debit total = credit total).'), items: [] };
  const date = formatDate(range.to);
  return debit.eq(credit)
    ? { ...base, status: 'passed', detail: say('At {{date}} the debit total {{debit}} equals the credit total.', { date, debit: amount(debit) }) }
    : {
        ...base,
        status: 'failed',
        detail: say('At {{date}} the debit total {{debit}} differs from the credit total {{credit}} by {{difference}}.', {
          date,
          debit: amount(debit),
          credit: amount(credit),
          difference: amount(debit.minus(credit)),
        }),
      };
}

async function periodBalances({ tx, instanceId, range, amount, accountById, say }: Context): Promise<CheckResult> {
  const drift = await selectMonthDrift(tx, instanceId, range, MAX_ITEMS);
  const base = { key: 'period-balances', name: say('The month balances match the postings.') };
  if (drift.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: say('For every account and month from {{from}} to {{to}} the stored month balance equals the sum of its postings.', {
        from: formatDate(range.from).slice(3),
        to: formatDate(range.to).slice(3),
      }),
      items: [],
    };
  }
  return {
    ...base,
    status: 'failed',
    detail: say.plural(
      drift.length,
      '{{count}} account month of the stored month balances differ from the postings; the balances and reports read them, so they are wrong until the table is rebuilt.',
      '{{count}} account months of the stored month balances differ from the postings; the balances and reports read them, so they are wrong until the table is rebuilt.',
    ),
    items: drift.map((row) => {
      const posted = money(row.postedDebit).minus(row.postedCredit);
      const stored = money(row.storedDebit).minus(row.storedCredit);
      return {
        label: say('{{account}} in {{month}}: postings {{posted}}, month balance {{stored}}', {
          account: accountName(say, accountById.get(row.accountId), row.accountId),
          month: row.period.slice(0, 7),
          posted: amount(posted),
          stored: amount(stored),
        }),
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

/**
 * The documents a control account is checked against, as the texts name them: a count (one / other),
 * "no invoice" (the subject of "… is open"), "the invoices" and "the open invoices".
 */
interface DocumentWords {
  one: string;
  other: string;
  none: string;
  all: string;
  open: string;
}

const DOCUMENT_WORDS: Readonly<Record<'invoice' | 'bill' | 'billOrExpense' | 'expense', DocumentWords>> = {
  invoice: { one: msg('{{count}} invoice'), other: msg('{{count}} invoices'), none: msg('no invoice'), all: msg('the invoices'), open: msg('the open invoices') },
  bill: { one: msg('{{count}} bill'), other: msg('{{count}} bills'), none: msg('no bill'), all: msg('the bills'), open: msg('the open bills') },
  billOrExpense: {
    one: msg('{{count}} bill or expense'),
    other: msg('{{count}} bills and expenses'),
    none: msg('no bill or expense'),
    all: msg('the bills and expenses'),
    open: msg('the open bills and expenses'),
  },
  expense: { one: msg('{{count}} expense'), other: msg('{{count}} expenses'), none: msg('no expense'), all: msg('the expenses'), open: msg('the open expenses') },
};

/** receivables, payables and staff-expenses. */
async function controlAccountChecks(context: Context): Promise<CheckResult[]> {
  const { tx, instanceId, sources, range, say } = context;
  const receivable = await controlAccountOrNull(tx, instanceId, 'receivable');
  const payable = await controlAccountOrNull(tx, instanceId, 'payable');
  const expenses = await controlAccountOrNull(tx, instanceId, 'expenses');
  const invoices = await sources.openInvoicesAt(tx, instanceId, range.to, say.language);
  const payables = await sources.openPayablesAt(tx, instanceId, range.to, say.language);
  // Each bill or expense counts on the account its booking credited (both on 2000 without a 2250).
  const onAccount = (accountId: number | null) =>
    payables.filter((bill) => (bill.accountId ?? (bill.kind === 'expense' ? expenses : payable)) === accountId);

  const results = [
    await controlAccountCheck(context, {
      key: 'receivables',
      name: say('Receivables agree with the open invoices.'),
      accountId: receivable,
      side: 1,
      documents: invoices,
      what: DOCUMENT_WORDS.invoice,
      sources: INVOICE_SOURCES,
    }),
    await controlAccountCheck(context, {
      key: 'payables',
      name: say('Payables agree with the open bills.'),
      accountId: payable,
      side: -1,
      documents: onAccount(payable),
      what: payable === expenses ? DOCUMENT_WORDS.billOrExpense : DOCUMENT_WORDS.bill,
      sources: PAYABLE_SOURCES,
    }),
  ];
  const staffName = say('Expenses owed to staff agree with the open expenses.');
  if (expenses !== null && expenses === payable) {
    const account = context.accountById.get(expenses);
    results.push({
      key: 'staff-expenses',
      name: staffName,
      status: 'passed',
      detail: say('The chart has no separate account for expenses owed to staff (2250): expenses are booked on {{account}} and checked with the payables.', {
        account: accountName(say, account, expenses),
      }),
      items: [],
    });
  } else {
    results.push(
      await controlAccountCheck(context, {
        key: 'staff-expenses',
        name: staffName,
        accountId: expenses,
        side: -1,
        documents: onAccount(expenses),
        what: DOCUMENT_WORDS.expense,
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
    what: DocumentWords;
    sources: readonly string[];
  },
): Promise<CheckResult> {
  const { tx, instanceId, range, amount, accountById, atEnd, say } = context;
  const base = { key: spec.key, name: spec.name };
  const open = spec.documents.reduce((sum, document) => sum.plus(document.amount), money('0'));
  const count = say.plural(spec.documents.length, spec.what.one, spec.what.other);
  const none = say(spec.what.none);
  const date = formatDate(range.to);
  const documentItems = (documents: readonly OpenDocument[]) =>
    documents.map((document): CheckItem => ({ label: document.label, link: document.link, amount: fixed(document.amount) }));
  if (spec.accountId === null) {
    return spec.documents.length === 0
      ? { ...base, status: 'passed', detail: say('The chart has no account for these documents, and {{none}} is open at {{date}}.', { none, date }), items: [] }
      : {
          ...base,
          status: 'failed',
          detail: say('{{documents}} open at {{date}} ({{open}}), but the chart has no control account to hold them.', { documents: count, date, open: amount(open) }),
          items: documentItems(spec.documents.slice(0, MAX_ITEMS)),
        };
  }
  const account = accountById.get(spec.accountId);
  const name = accountName(say, account, spec.accountId);
  // The balance on the documents' side: a receivable's debit balance, a liability's credit balance.
  const balance = balanceOf(atEnd.get(spec.accountId)).times(spec.side);
  const sideBalance = spec.side === 1 ? say('debit balance') : say('credit balance');
  if (balance.eq(open)) {
    return {
      ...base,
      status: 'passed',
      detail: spec.documents.length
        ? say('{{account}}: {{sideBalance}} {{balance}} at {{date}} equals the {{documents}} open then.', { account: name, sideBalance, balance: amount(balance), date, documents: count })
        : say('{{account}}: balance {{balance}} at {{date}}, and {{none}} is open then.', { account: name, balance: amount(balance), date, none }),
      items: [],
    };
  }
  const difference = balance.minus(open);
  const other = await selectPostingsFromOtherSources(tx, instanceId, spec.accountId, range.to, spec.sources, MAX_ITEMS, balanceOf(atEnd.get(spec.accountId)).toFixed());
  const otherSum = money(other.sum).times(spec.side);
  const number = account?.number ?? name;
  const explanation = other.count
    ? ' ' +
      (otherSum.eq(difference)
        ? say('Postings on {{account}} that {{none}} made add up to {{sum}} ({{postings}}), which is the difference; they are listed first, then {{open}}.', {
            account: number,
            none,
            sum: amount(otherSum),
            postings: postingsText(say, other.count),
            open: say(spec.what.open),
          })
        : say('Postings on {{account}} that {{none}} made add up to {{sum}} ({{postings}}); they are listed first, then {{open}}.', {
            account: number,
            none,
            sum: amount(otherSum),
            postings: postingsText(say, other.count),
            open: say(spec.what.open),
          }))
    : ' ' + say('Every posting on {{account}} comes from {{all}}; {{open}} are listed.', { account: number, all: say(spec.what.all), open: say(spec.what.open) });
  const postingItems = other.postings.map(
    (posting: PostingHead): CheckItem => ({
      label: say('Entry {{id}} of {{date}} ({{source}}): "{{description}}"', {
        id: posting.entryId,
        date: formatDate(posting.date),
        source: posting.source,
        description: posting.description,
      }),
      link: entryLink(posting.entryId),
      amount: fixed(money(posting.amount).times(spec.side)),
    }),
  );
  const values = { account: name, sideBalance, balance: amount(balance), date, difference: amount(difference) };
  return {
    ...base,
    status: 'failed',
    detail:
      (spec.documents.length
        ? say('{{account}}: {{sideBalance}} {{balance}} at {{date}}, but the {{documents}} open then come to {{open}}: a difference of {{difference}}.', {
            ...values,
            documents: count,
            open: amount(open),
          })
        : say('{{account}}: {{sideBalance}} {{balance}} at {{date}}, but {{none}} is open then: a difference of {{difference}}.', { ...values, none })) + explanation,
    items: [...postingItems, ...documentItems(spec.documents)].slice(0, MAX_ITEMS),
  };
}

function bankStatements({ statements, atDate, accounts, accountById, range, amount, say }: Context): CheckResult {
  const base = { key: 'bank-statements', name: say("Each bank account's balance agrees with its last bank statement.") };
  const withStatement = new Set(statements.map((statement) => statement.accountId));
  const without = accounts.filter((account) => account.functionTypeId === AccountFunctionType.bankAccount && !withStatement.has(account.id));
  const names = without.map((account) => `${account.number} ${account.name}`).join(', ');
  const date = formatDate(range.to);
  const withoutText = without.length ? ' ' + say('No statement imported on or before {{date}} for {{accounts}}.', { date, accounts: names }) : '';
  if (statements.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: without.length
        ? say('No bank statement (camt.053) with a closing balance was imported up to {{date}} for {{accounts}}: nothing to compare.', { date, accounts: names })
        : say('No bank statement (camt.053) with a closing balance was imported up to {{date}}: nothing to compare.', { date }),
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
    say('{{account}}: statement of {{date}} {{closing}}, ledger {{ledger}}', {
      account: accountName(say, row.account, row.statement.accountId),
      date: formatDate(row.statement.date),
      closing: amount(row.statement.closingBalance),
      ledger: amount(row.ledger),
    });
  if (differing.length === 0) {
    const agreeing = compared.map((row) =>
      say('{{account}} agrees with its statement of {{date}} ({{balance}})', {
        account: row.account?.number ?? row.statement.accountId,
        date: formatDate(row.statement.date),
        balance: amount(row.ledger),
      }),
    );
    return { ...base, status: 'passed', detail: `${agreeing.join('; ')}.${withoutText}`, items: [] };
  }
  return {
    ...base,
    status: 'failed',
    detail:
      `${differing.map((row) => say('{{statement}}: difference {{difference}}', { statement: describe(row), difference: amount(row.difference) })).join('; ')}. ` +
      `${say('Book the missing bank lines on the reconciliation page or find the posting on the wrong date or account.')}${withoutText}`,
    items: differing.map((row) => ({ label: describe(row), link: reconciliationLink(row.statement.accountId), amount: fixed(row.difference) })),
  };
}

async function bankLinesUnreconciled({ tx, instanceId, sources, range, currency, accountById, say }: Context): Promise<CheckResult> {
  const before = addDays(range.to, -30);
  const { lines, count } = await sources.unreconciledBankLines(tx, instanceId, before, MAX_ITEMS, say.language);
  const base = { key: 'bank-lines-unreconciled', name: say('Bank lines are reconciled within 30 days.') };
  if (count === 0) {
    return {
      ...base,
      status: 'passed',
      detail: say('Every bank line booked before {{date}} (30 days before {{end}}) is matched or booked.', { date: formatDate(before), end: formatDate(range.to) }),
      items: [],
    };
  }
  const accountIds = [...new Set(lines.map((line) => line.accountId))];
  return {
    ...base,
    status: 'warning',
    detail: say.plural(
      count,
      "{{count}} bank line booked before {{date}} is still neither matched to an invoice or bill nor booked ({{accounts}}): reconcile them on the account's reconciliation page.",
      "{{count}} bank lines booked before {{date}} are still neither matched to an invoice or bill nor booked ({{accounts}}): reconcile them on the account's reconciliation page.",
      { date: formatDate(before), accounts: accountIds.map((id) => accountName(say, accountById.get(id), id)).join(', ') },
    ),
    items: lines.map((line) => ({
      label: `${accountById.get(line.accountId)?.number ?? line.accountId}: ${formatDate(line.bookingDate)} ${line.label}${line.currency === currency ? '' : ` (${line.currency} ${fixed(line.amount)})`}`,
      link: reconciliationLink(line.accountId),
      amount: line.currency === currency ? fixed(line.amount) : null,
    })),
  };
}

function suspenseAccounts({ accounts, atEnd, range, amount, say }: Context): CheckResult {
  const base = { key: 'suspense-accounts', name: say('Clearing and suspense accounts are cleared.') };
  const present = accounts.filter((account) => SUSPENSE_ACCOUNTS[account.number] !== undefined);
  if (present.length === 0) {
    return { ...base, status: 'passed', detail: say('The chart has none of the clearing accounts {{numbers}}.', { numbers: Object.keys(SUSPENSE_ACCOUNTS).join(', ') }), items: [] };
  }
  const open = present.map((account) => ({ account, balance: balanceOf(atEnd.get(account.id)) })).filter((row) => !row.balance.isZero());
  if (open.length === 0) {
    return {
      ...base,
      status: 'passed',
      detail: say.plural(present.length, '{{numbers}} is zero at {{date}}.', '{{numbers}} are zero at {{date}}.', {
        numbers: present.map((account) => account.number).join(', '),
        date: formatDate(range.to),
      }),
      items: [],
    };
  }
  const list = open
    .map(({ account, balance }) =>
      say('{{account}} holds {{balance}} (debit positive), {{why}}', { account: `${account.number} ${account.name}`, balance: amount(balance), why: say(SUSPENSE_ACCOUNTS[account.number]!) }),
    )
    .join('; ');
  return {
    ...base,
    status: 'warning',
    detail: say('{{list}}. Clear them to the accounts they belong to before closing.', { list }),
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
  const { tx, instanceId, sources, range, accounts, atEnd, beforeStart, amount, say } = context;
  const base = { key: 'vat', name: say('The VAT accounts agree with the VAT of the invoices and bills.') };
  const output = accounts.filter((account) => account.functionTypeId === AccountFunctionType.vat || OUTPUT_VAT_NUMBERS.includes(account.number));
  const input = accounts.filter((account) => INPUT_VAT_ACCOUNTS.includes(account.number));
  const turnover = (list: CheckAccount[], side: 'debit' | 'credit') =>
    list.reduce((sum, account) => sum.plus((atEnd.get(account.id) ?? ZERO)[side]).minus((beforeStart.get(account.id) ?? ZERO)[side]), money('0'));
  const outputLedger = turnover(output, 'credit');
  const inputLedger = turnover(input, 'debit');
  const salesVat = await sources.salesVatOfPeriod(tx, instanceId, range);
  const inputVat = await sources.inputVatOfPeriod(tx, instanceId, range);
  const numbers = (list: CheckAccount[]) => (list.length ? list.map((account) => account.number).join(', ') : say('no account'));
  const outputText = say('Output VAT credited to {{accounts}}: {{ledger}}; VAT of the {{invoices}} sent: {{vat}}.', {
    accounts: numbers(output),
    ledger: amount(outputLedger),
    invoices: say.plural(salesVat.documents, DOCUMENT_WORDS.invoice.one, DOCUMENT_WORDS.invoice.other),
    vat: amount(salesVat.amount),
  });
  const inputText = say('Input VAT debited to {{accounts}}: {{ledger}}; VAT of the {{documents}} booked: {{vat}}.', {
    accounts: numbers(input),
    ledger: amount(inputLedger),
    documents: say.plural(inputVat.documents, DOCUMENT_WORDS.billOrExpense.one, DOCUMENT_WORDS.billOrExpense.other),
    vat: amount(inputVat.amount),
  });
  const outputDiff = outputLedger.minus(salesVat.amount);
  const inputDiff = inputLedger.minus(inputVat.amount);
  const intro = say('From {{period}}: {{output}} {{input}}', { period: periodText(say, range), output: outputText, input: inputText });
  if (outputDiff.isZero() && inputDiff.isZero()) {
    return { ...base, status: 'passed', detail: say('{{intro}} Both agree (VAT payments and settlements are not compared).', { intro }), items: [] };
  }
  const items: CheckItem[] = [];
  const differences: string[] = [];
  const list = async (accountList: CheckAccount[], direction: 1 | -1, documentSources: readonly string[]) => {
    const found = await selectSidePostingsFromOtherSources(tx, instanceId, accountList.map((account) => account.id), range, direction, documentSources, MAX_ITEMS - items.length);
    for (const posting of found.postings) {
      items.push({
        label: say('Entry {{id}} of {{date}} ({{source}}) on {{account}}: "{{description}}"', {
          id: posting.entryId,
          date: formatDate(posting.date),
          source: posting.source,
          account: context.accountById.get(posting.accountId)?.number ?? posting.accountId,
          description: posting.description,
        }),
        link: entryLink(posting.entryId),
        amount: fixed(posting.amount),
      });
    }
    return found;
  };
  if (!outputDiff.isZero()) {
    const found = await list(output, -1, INVOICE_SOURCES);
    differences.push(
      say('output VAT differs by {{difference}} ({{postings}} not made by invoices, {{sum}})', { difference: amount(outputDiff), postings: postingsText(say, found.count), sum: amount(found.sum) }),
    );
  }
  if (!inputDiff.isZero()) {
    const found = await list(input, 1, PAYABLE_SOURCES);
    differences.push(
      say('input VAT differs by {{difference}} ({{postings}} not made by bills, {{sum}})', { difference: amount(inputDiff), postings: postingsText(say, found.count), sum: amount(found.sum) }),
    );
  }
  return {
    ...base,
    status: 'warning',
    detail:
      differences.length === 2
        ? say('{{intro}} The {{first}}; the {{second}}: make sure the VAT return includes what was posted by hand.', { intro, first: differences[0]!, second: differences[1]! })
        : say('{{intro}} The {{difference}}: make sure the VAT return includes what was posted by hand.', { intro, difference: differences[0]! }),
    items,
  };
}

async function futureEntries({ tx, instanceId, amount, say }: Context): Promise<CheckResult> {
  const today = todayInSwitzerland();
  const { entries, count } = await selectEntriesAfter(tx, instanceId, today, MAX_ITEMS);
  const base = { key: 'future-entries', name: say('No journal entry is dated after today.') };
  if (count === 0) return { ...base, status: 'passed', detail: say('No entry is dated after today ({{today}}).', { today: formatDate(today) }), items: [] };
  return {
    ...base,
    status: 'warning',
    detail: say.plural(
      count,
      '{{count}} entry is dated after today ({{today}}), the first on {{first}}: a mistyped year? They count in every balance from their date on.',
      '{{count}} entries are dated after today ({{today}}), the first on {{first}}: a mistyped year? They count in every balance from their date on.',
      { today: formatDate(today), first: formatDate(entries[0]!.date) },
    ),
    items: entries.map((entry) => ({
      label: say('Entry {{id}} of {{date}}: "{{description}}" ({{total}})', { id: entry.id, date: formatDate(entry.date), description: entry.description, total: amount(entry.total) }),
      link: entryLink(entry.id),
      amount: fixed(entry.total),
    })),
  };
}

function duplicateEntries({ range, say }: Context, { duplicates: groups, duplicateCount: count }: EntryScan): CheckResult {
  const base = { key: 'duplicate-entries', name: say('No journal entry is booked twice.') };
  const period = periodText(say, range);
  if (count === 0) {
    return { ...base, status: 'passed', detail: say('No two entries from {{period}} share date, amount and text.', { period }), items: [] };
  }
  const groupsText = say.plural(groups.length, '{{count}} group', '{{count}} groups');
  return {
    ...base,
    status: 'warning',
    detail: say('{{entries}} from {{period}} share date, amount and text with another ({{groups}}): check whether one was booked twice.', {
      entries: entriesText(say, count),
      period,
      groups: count > MAX_ITEMS ? say('{{groups}} among the first listed', { groups: groupsText }) : groupsText,
    }),
    items: groups.flat().map((entry) => ({
      label: say('Entry {{id}} of {{date}}: "{{description}}"', { id: entry.id, date: formatDate(entry.date), description: entry.description }),
      link: entryLink(entry.id),
      amount: fixed(entry.total),
    })),
  };
}

/** Cash and bank: asset accounts of group 100 "Flüssige Mittel" and the bank accounts. */
const isCash = (account: CheckAccount) =>
  account.typeId === AccountType.assets && (account.functionTypeId === AccountFunctionType.bankAccount || account.group === '100');

function wrongSideBalances({ accounts, atEnd, range, amount, say }: Context): CheckResult {
  const base = { key: 'wrong-side-balances', name: say('Cash, bank and liability accounts have their balance on the expected side.') };
  const wrong = accounts.flatMap((account) => {
    const balance = balanceOf(atEnd.get(account.id));
    if (isCash(account) && balance.isNegative()) return [{ account, balance, why: say('cash or bank with a credit balance') }];
    if (account.typeId === AccountType.liability && balance.gt(0)) return [{ account, balance, why: say('liability with a debit balance') }];
    return [];
  });
  const date = formatDate(range.to);
  if (wrong.length === 0) {
    return { ...base, status: 'passed', detail: say('At {{date}} no cash or bank account has a credit balance and no liability a debit balance.', { date }), items: [] };
  }
  return {
    ...base,
    status: 'warning',
    detail: say(
      'At {{date}}: {{list}}. A negative cash balance is impossible and a bank overdraft belongs on a liability account; a liability in debit is usually a payment booked twice or on the wrong account.',
      { date, list: wrong.map(({ account, balance, why }) => `${account.number} ${account.name} ${amount(balance)} (${why})`).join('; ') },
    ),
    items: wrong.slice(0, MAX_ITEMS).map(({ account, balance, why }) => ({ label: `${account.number} ${account.name}: ${why}`, link: accountLink(account.id), amount: fixed(balance) })),
  };
}
