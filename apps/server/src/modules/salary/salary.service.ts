/**
 * Salary import (issue 16 §3, spec §2.2 `/salary/import`, decision 026): a payroll journal exported
 * by Swiss payroll software becomes journal entries — one balanced entry per period, or per period
 * and employee — through the accounting module's postJournalEntry (source 'salary'), all or nothing.
 * With `netClaims`, each employee's net pay of a period becomes a staff expense owed to them
 * (payables' insertSalaryClaims), payable in a payment run whose pain.001 marks it SALA.
 *
 * A row: period, employee, amount and either a wage type (mapped to debit/credit accounts, domain
 * DEFAULT_SALARY_WAGE_TYPES unless the instance saved its own), or its own debit and/or credit
 * account, or one `account` with a signed amount (positive debit, negative credit). A row with both
 * sides balances by itself; one-sided rows must balance within their entry. Errors are reported per
 * row as the journal import does (lib/csv.ts RowErrors), before anything is written.
 */
import { createHash } from 'node:crypto';
import {
  amountTooLargeMessage,
  DEFAULT_SALARY_WAGE_TYPES,
  isAmountString,
  isValidIban,
  isValidIsoDate,
  isWithinAmountBound,
  MAX_AMOUNT,
  normalizeIban,
  SALARY_CHART_ACCOUNTS,
  toFixedAmount,
  toMoney,
  type Money,
  type SalaryGrouping,
  type SalaryWageType,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { RowErrors, type CsvRecord } from '../../lib/csv.js';
import { alreadyDone } from '../../http/errors.js';
import { booksCurrency, chartAccountId, firstOpenDate, listLedgerAccounts, postJournalEntry, type PostingInput } from '../accounting/accounting.service.js';
import { insertSalaryClaims } from '../payables/payables.service.js';
import { salaryError } from './salary.errors.js';
import { claimImport, importBySha, replaceWageTypes, selectImports, selectWageTypes, setImportResult } from './salary.sql.js';
import { isZip, readPayrollCsv, readPayrollXlsx } from './payroll-file.js';

export { selectImports as listSalaryImports };

/** The instance's mapping: the saved one, else the Swiss defaults (`isDefault`). */
export async function wageTypes(tx: Tx, instanceId: string): Promise<{ data: SalaryWageType[]; isDefault: boolean }> {
  const saved = await selectWageTypes(tx, instanceId);
  return saved.length ? { data: saved, isDefault: false } : { data: DEFAULT_SALARY_WAGE_TYPES.map((t) => ({ ...t })), isDefault: true };
}

/**
 * Saves the mapping (replacing the saved one). 400 naming `data.N.code` for a duplicate code and
 * `data.N.debitAccount`/`creditAccount` for a number the chart lacks (the chart accounts of
 * SALARY_CHART_ACCOUNTS excepted: they are created on first use).
 */
export async function saveWageTypes(tx: Tx, instanceId: string, list: readonly SalaryWageType[]) {
  const fields: Record<string, string> = {};
  const known = await chartNumbers(tx, instanceId);
  const seen = new Set<string>();
  list.forEach((type, index) => {
    if (seen.has(type.code)) fields[`data.${index}.code`] = `wage type ${type.code} is listed twice`;
    seen.add(type.code);
    for (const side of ['debitAccount', 'creditAccount'] as const) {
      const number = type[side];
      if (number && !known.has(number) && !(number in SALARY_CHART_ACCOUNTS)) fields[`data.${index}.${side}`] = `no ledger account ${number} in the chart`;
    }
    if (!type.debitAccount && !type.creditAccount) fields[`data.${index}.debitAccount`] = 'give the debit account, the credit account or both';
  });
  const [first] = Object.entries(fields);
  if (first) throw salaryError('invalid_wage_types', `${first[0]}: ${first[1]}`, fields);
  await replaceWageTypes(tx, instanceId, list);
  return wageTypes(tx, instanceId);
}

async function chartNumbers(tx: Tx, instanceId: string): Promise<Map<string, { id: number; name: string }>> {
  return new Map((await listLedgerAccounts(tx, instanceId)).map((account) => [account.number, { id: account.id, name: account.name }]));
}

export interface SalaryImportOptions {
  file: { name: string; encoding: 'text' | 'base64'; content: string };
  groupBy: SalaryGrouping;
  netClaims: boolean;
}

export interface PreviewLine {
  account: { number: string; name: string; isNew: boolean };
  debit: string | null;
  credit: string | null;
  description: string;
}

export interface PreviewEntry {
  key: string;
  date: string;
  description: string;
  lines: PreviewLine[];
  total: string;
}

export interface PreviewClaim {
  employee: string;
  iban: string;
  period: string;
  date: string;
  amount: string;
}

export interface SalaryPlan {
  rows: number;
  periodFrom: string;
  periodTo: string;
  employees: number;
  /** Sum of the rows debited to expense accounts (class 5 and up): the payroll's cost. */
  totalCost: string;
  entries: PreviewEntry[];
  claims: PreviewClaim[];
  clearingAccount: string | null;
}

const PERIOD_MESSAGE = 'expected a period YYYY-MM (or MM.YYYY)';

/** 'YYYY-MM', 'MM.YYYY', 'MM/YYYY', 'YYYY-MM-DD' → 'YYYY-MM', else undefined. */
function periodOf(value: string): string | undefined {
  let match = /^(\d{4})-(\d{1,2})(?:-\d{1,2})?$/.exec(value);
  let year: string | undefined;
  let month: string | undefined;
  if (match) [year, month] = [match[1], match[2]];
  else if ((match = /^(\d{1,2})[./](\d{4})$/.exec(value))) [month, year] = [match[1], match[2]];
  if (!year || !month || Number(month) < 1 || Number(month) > 12 || Number(year) < 1900 || Number(year) > 2300) return undefined;
  return `${year}-${month.padStart(2, '0')}`;
}

/** The last day of period 'YYYY-MM' (the usual salary date of the month). */
const lastDayOf = (period: string): string => {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
};

/** '31.03.2026' or '2026-03-31' → ISO date, else undefined. */
function dateOf(value: string): string | undefined {
  const swiss = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  const iso = swiss ? `${swiss[3]}-${swiss[2]!.padStart(2, '0')}-${swiss[1]!.padStart(2, '0')}` : value;
  return isValidIsoDate(iso) ? iso : undefined;
}

interface Row {
  line: number;
  period: string;
  date: string;
  employee: string;
  description: string;
  /** Positive amount moved from credit to debit. */
  amount: Money;
  debit: string | null;
  credit: string | null;
  isNetPay: boolean;
  key: string;
}

async function readRecords(file: SalaryImportOptions['file']): Promise<{ records: CsvRecord[]; bytes: Buffer }> {
  const bytes = file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : Buffer.from(file.content, 'utf8');
  if (bytes.length === 0) throw salaryError('import_invalid', 'the file is empty', { 'file.content': 'the file is empty' });
  const isXlsx = file.name.toLowerCase().endsWith('.xlsx') || isZip(bytes);
  return { records: isXlsx ? await readPayrollXlsx(bytes) : readPayrollCsv(bytes.toString('utf8')), bytes };
}

/**
 * Reads and checks the file against the mapping and the chart; answers the entries and claims it
 * would post. 400 `import_invalid` listing every bad row ("line N, column C: …"), nothing written.
 */
export async function planSalaryImport(tx: Tx, instanceId: string, options: SalaryImportOptions): Promise<SalaryPlan & { rowsRead: Row[]; bytes: Buffer }> {
  const { records, bytes } = await readRecords(options.file);
  const mapping = new Map((await wageTypes(tx, instanceId)).data.map((type) => [type.code, type]));
  const chart = await chartNumbers(tx, instanceId);
  const errors = new RowErrors();
  const unmapped = new Set<string>();
  const ibans = new Map<string, string>();
  const rows: Row[] = [];

  for (const { line, values } of records) {
    const period = periodOf(values.period ?? '');
    if (!period) errors.add(line, 'period', values.period ? `"${values.period}": ${PERIOD_MESSAGE}` : 'This field is required');
    let date = period ? lastDayOf(period) : '';
    if (values.date) {
      const given = dateOf(values.date);
      if (!given) errors.add(line, 'date', `"${values.date}": expected a date YYYY-MM-DD or DD.MM.YYYY`);
      else date = given;
    }
    const employee = (values.employee ?? '').trim();
    if (!employee) errors.add(line, 'employee', 'This field is required');
    else if (employee.length > 140) errors.add(line, 'employee', 'at most 140 characters');
    if (values.iban) {
      if (!isValidIban(values.iban)) errors.add(line, 'iban', `"${values.iban}" is not a valid IBAN`);
      else if (employee) ibans.set(employee, normalizeIban(values.iban));
    }
    const text = (values.amount ?? '').replace(/['’\s]/g, '');
    let amount: Money | undefined;
    if (!isAmountString(text, 2)) errors.add(line, 'amount', `"${values.amount ?? ''}" is not an amount with at most 2 decimals such as 6500.00`);
    else if (!isWithinAmountBound(text)) errors.add(line, 'amount', amountTooLargeMessage(MAX_AMOUNT));
    else amount = toMoney(text);

    const code = (values.wagetype ?? '').trim();
    const type = code ? mapping.get(code) : undefined;
    if (code && !type) errors.add(line, 'wagetype', `unknown wage type "${code}": add it to the mapping or give the row's debit and credit accounts`);
    let debit = (values.debit ?? '').trim() || type?.debitAccount || null;
    let credit = (values.credit ?? '').trim() || type?.creditAccount || null;
    const single = (values.account ?? '').trim();
    if (single) {
      // One account with a signed amount: positive debits it, negative credits it.
      if (amount?.isNegative()) credit ??= single;
      else debit ??= single;
    }
    if (!debit && !credit && !(code && !type)) errors.add(line, 'wagetype', 'the row names no account: give a wage type, an account, or debit and credit');
    if (debit && credit && debit === credit) errors.add(line, 'debit', `debit and credit are the same account ${debit}`);
    for (const [column, number] of [['debit', debit], ['credit', credit]] as const) {
      if (number && !chart.has(number) && !(number in SALARY_CHART_ACCOUNTS)) unmapped.add(number);
      if (number && !/^\d{4,10}$/.test(number)) errors.add(line, column, `"${number}" is not an account number (4 to 10 digits)`);
    }
    if (!period || !employee || !amount || (!debit && !credit)) continue;
    // A negative amount (a correction) moves the other way.
    if (amount.isNegative() && !single) [debit, credit] = [credit, debit];
    const description = (values.description ?? '').trim() || type?.name || code;
    rows.push({
      line,
      period,
      date,
      employee,
      description: description.slice(0, 200),
      amount: amount.abs(),
      debit,
      credit,
      isNetPay: type?.isNetPay ?? false,
      key: options.groupBy === 'employee' ? `${period} ${employee}` : period,
    });
  }

  const claimsOn = options.netClaims;
  // Entries: rows by key; the first row's date is the entry's, one-sided rows must balance.
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(row.key, [...(groups.get(row.key) ?? []), row]);
  for (const [key, list] of groups) {
    const first = list[0]!;
    for (const row of list) if (row.date !== first.date) errors.add(row.line, 'date', `entry ${key} is dated ${first.date} on line ${first.line}; its rows must share that date`);
    const balance = list.filter((row) => !(row.debit && row.credit)).reduce((sum, row) => sum.plus(row.debit ? row.amount : row.amount.negated()), toMoney(0));
    if (!balance.isZero()) {
      const lines = list.filter((row) => !(row.debit && row.credit)).map((row) => row.line);
      errors.add(lines[0]!, 'amount', `entry ${key} does not balance: debit minus credit is ${toFixedAmount(balance)} (one-sided rows on lines ${lines.join(', ')})`);
    }
  }
  // Claims: the net pay rows of an employee and period, owed to them; they need an IBAN.
  const claims = new Map<string, { employee: string; period: string; date: string; amount: Money; clearing: string; line: number }>();
  if (claimsOn) {
    for (const row of rows.filter((r) => r.isNetPay)) {
      if (!row.debit) {
        errors.add(row.line, 'wagetype', 'a net pay wage type needs its debit account (the salary clearing account 1091)');
        continue;
      }
      if (!ibans.has(row.employee)) errors.add(row.line, 'iban', `no IBAN for ${row.employee}: add an iban column to pay net salaries as claims`);
      const key = `${row.period}|${row.employee}`;
      const claim = claims.get(key) ?? { employee: row.employee, period: row.period, date: row.date, amount: toMoney(0), clearing: row.debit, line: row.line };
      claim.amount = claim.amount.plus(row.amount);
      claims.set(key, claim);
    }
  }

  if (unmapped.size || errors.count) {
    const lead = unmapped.size ? [{ column: 'account', message: [...unmapped].map((n) => `could not map account ${n}`).join(', ') }] : [];
    throw errors.toError(lead);
  }

  const accountHead = (number: string) => {
    const known = chart.get(number);
    return { number, name: known?.name ?? SALARY_CHART_ACCOUNTS[number] ?? number, isNew: !known };
  };
  const entries: PreviewEntry[] = [...groups].map(([key, list]) => {
    const lines: PreviewLine[] = [];
    let total = toMoney(0);
    for (const row of list) {
      if (row.amount.isZero() || (claimsOn && row.isNetPay)) continue;
      const text = `${row.employee}: ${row.description}`;
      if (row.debit) lines.push({ account: accountHead(row.debit), debit: toFixedAmount(row.amount), credit: null, description: text });
      if (row.credit) lines.push({ account: accountHead(row.credit), debit: null, credit: toFixedAmount(row.amount), description: text });
      if (row.debit) total = total.plus(row.amount);
    }
    const first = list[0]!;
    const description = options.groupBy === 'employee' ? `Salary ${first.period} ${first.employee}` : `Salaries ${first.period}`;
    return { key, date: first.date, description, lines, total: toFixedAmount(total) };
  });
  const periods = rows.map((row) => row.period).sort();
  const cost = rows.filter((row) => row.debit && /^[5-9]/.test(row.debit)).reduce((sum, row) => sum.plus(row.amount), toMoney(0));
  const claimList = [...claims.values()].map((claim) => ({
    employee: claim.employee,
    iban: ibans.get(claim.employee)!,
    period: claim.period,
    date: claim.date,
    amount: toFixedAmount(claim.amount),
  }));
  for (const claim of claims.values()) {
    if (!claim.amount.gt(0)) throw salaryError('import_invalid', `line ${claim.line}, column amount: the net pay of ${claim.employee} for ${claim.period} is not positive`, { [`line ${claim.line}.amount`]: 'net pay not positive' });
  }
  const clearing = [...claims.values()][0]?.clearing ?? null;
  return {
    rows: rows.length,
    periodFrom: periods[0]!,
    periodTo: periods[periods.length - 1]!,
    employees: new Set(rows.map((row) => row.employee)).size,
    totalCost: toFixedAmount(cost),
    entries: entries.filter((entry) => entry.lines.length > 0),
    claims: claimList,
    clearingAccount: clearing,
    rowsRead: rows,
    bytes,
  };
}

/** The preview: what `postSalaryImport` would post, nothing written. */
export async function previewSalaryImport(tx: Tx, instanceId: string, options: SalaryImportOptions): Promise<SalaryPlan> {
  const { rowsRead: _rows, bytes: _bytes, ...plan } = await planSalaryImport(tx, instanceId, options);
  await requireOpenDates(tx, instanceId, plan);
  return plan;
}

/** 409 when an entry or claim date lies on or before the lock date (spec §2.2 "Lock"). */
async function requireOpenDates(tx: Tx, instanceId: string, plan: SalaryPlan) {
  const dates = [...plan.entries.map((e) => e.date), ...plan.claims.map((c) => c.date)].sort();
  const earliest = dates[0];
  if (earliest && (await firstOpenDate(tx, instanceId, earliest)) !== earliest) {
    const message = `the salary date ${earliest} is on or before the lock date`;
    throw salaryError('period_locked', message, { dateLedger: message });
  }
}

export interface SalaryImportResult {
  id: number;
  entries: { id: number; key: string; date: string }[];
  claims: { uuid: string; employee: string; period: string; amount: string }[];
  periodFrom: string;
  periodTo: string;
}

/**
 * Posts the plan in the caller's transaction: the import's key first (the same file with the same
 * choices again → 409 `already_done`), then each entry through postJournalEntry (source 'salary',
 * source_ref 'salary-<import id>'), then the claims. Missing chart accounts of the defaults (1091,
 * 2271) are created first, named as the Swiss SME chart names them.
 */
export async function postSalaryImport(tx: Tx, instanceId: string, userId: string | null, options: SalaryImportOptions): Promise<SalaryImportResult> {
  const plan = await planSalaryImport(tx, instanceId, options);
  await requireOpenDates(tx, instanceId, plan);
  const sha256 = createHash('sha256').update(plan.bytes).update(`|${options.groupBy}|${options.netClaims}`).digest('hex');
  const id = await claimImport(tx, instanceId, {
    sha256,
    fileName: options.file.name,
    groupBy: options.groupBy,
    netClaims: options.netClaims,
    periodFrom: plan.periodFrom,
    periodTo: plan.periodTo,
    totalGross: plan.totalCost,
    createdBy: userId,
  });
  if (id === null) {
    const earlier = await importBySha(tx, instanceId, sha256);
    throw alreadyDone(`this payroll file was imported already with the same choices (import ${earlier?.id ?? '?'})`, { 'file.content': 'imported already' });
  }
  const currency = await booksCurrency(tx, instanceId);
  const accountIds = new Map<string, number>();
  const accountId = async (number: string) => {
    if (!accountIds.has(number)) {
      const name = SALARY_CHART_ACCOUNTS[number] ?? number;
      accountIds.set(number, await chartAccountId(tx, instanceId, { number, name }, currency));
    }
    return accountIds.get(number)!;
  };
  const entries: SalaryImportResult['entries'] = [];
  for (const entry of plan.entries) {
    const lines: PostingInput[] = [];
    for (const line of entry.lines) {
      lines.push({
        accountId: await accountId(line.account.number),
        amount: line.debit ?? line.credit!,
        direction: line.debit ? 1 : -1,
        description: line.description.slice(0, 500),
      });
    }
    const entryId = await postJournalEntry(tx, instanceId, userId, { dateLedger: entry.date, description: entry.description, source: 'salary', sourceRef: `salary-${id}`, lines });
    entries.push({ id: entryId, key: entry.key, date: entry.date });
  }
  let uuids: string[] = [];
  if (plan.claims.length) {
    const clearingAccountId = await accountId(plan.clearingAccount!);
    uuids = await insertSalaryClaims(
      tx,
      instanceId,
      userId,
      plan.claims.map((claim) => ({
        employee: claim.employee,
        iban: claim.iban,
        amount: claim.amount,
        date: claim.date,
        description: `Net salary ${claim.period} ${claim.employee}`,
        message: `Salary ${claim.period}`,
        clearingAccountId,
      })),
    );
  }
  await setImportResult(tx, instanceId, id, entries.map((e) => e.id), uuids);
  return {
    id,
    entries,
    claims: plan.claims.map((claim, i) => ({ uuid: uuids[i]!, employee: claim.employee, period: claim.period, amount: claim.amount })),
    periodFrom: plan.periodFrom,
    periodTo: plan.periodTo,
  };
}
