/**
 * The VAT return computed from postings alone (issue 13 §3, decisions 019 and 020): every figure,
 * the postings behind each figure (drill-down), and the reconciliation with the VAT accounts.
 *
 * Each coded posting adds to figures by its code's kind and role (`contributions`), the same rule for
 * the figures and for the drill-down, so the postings of a figure always sum to it:
 * - sales: base → 200 and the rate's row (303a …), tax → the rate's row (303b …);
 * - exempt: base → 200 and its own figure (220, 221, 230, …);
 * - reduction: base → 235, and off the rate's row (base and tax), so 299 = Σ rows' bases;
 * - acquisition: base and tax → the acquisition row (383), deduction → its figure (400/405);
 * - input: tax → 400/405/410, or positive → 415/420 for a correction or reduction (a credit); outside: base → 900/910 when the code names them.
 * The rate's row follows the rate applied (8.1 → 303, 7.7 → 302, …), so a 2023 supply booked in
 * 2024 lands in 302. Net tax rate method (MWSTG art. 37): turnover including tax (base + its tax)
 * per approved rate (by revenue account range), tax = turnover × rate; no input tax; turnover of
 * supplies before 2024 (a 2018–2023 rate on the posting) in 321/331 at the rate approved then.
 */
import {
  compareTaxLines,
  deriveVatFigures,
  netRateTax,
  netRateRow,
  normalizeRatePercent,
  standardTaxRows,
  toFixedAmount,
  toMoney,
  Money,
  vatNormalDirection,
  vatTaxZiffer,
  type BaseZiffer,
  type Money as MoneyValue,
  type NetTaxRate,
  type VatBasis,
  type VatFigures,
  type VatMethod,
  type VatTaxLine,
  type VatTaxLineKind,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { invalidField } from './accounting.errors.js';
import { selectLedgerAccountHeads } from './ledger-account.sql.js';
import {
  selectDocumentVatRows,
  selectUncodedVatPostings,
  selectVatAccountMovements,
  selectVatCodeAccountIds,
  selectVatGroups,
  selectVatRows,
  type VatPostingGroup,
  type VatPostingRow,
} from './vat-return.sql.js';
import type { VatAccountAmount } from './vat.sql.js';

/** How the return is computed: method, basis and the approved net tax rates (settings). */
export interface VatReturnRules {
  method: VatMethod;
  basis: VatBasis;
  netTaxRates: readonly NetTaxRate[];
}

type Target = { ziffer: BaseZiffer } | { line: { kind: VatTaxLineKind; ziffer: string; ratePercent: string } };
interface Contribution {
  target: Target;
  column: 'base' | 'tax';
  amount: MoneyValue;
}

const ZIFFER_OF_SCALAR = /^(200|205|220|221|225|230|235|280|400|405|410|415|420|470|900|910)$/;
/** Input-tax figures that 479 subtracts (ESTV form: 479 = 400 + 405 + 410 − 415 − 420). */
const REDUCING_INPUT_TAX = new Set(['415', '420']);
const isScalar = (ziffer: string | null): ziffer is BaseZiffer => ziffer !== null && ZIFFER_OF_SCALAR.test(ziffer);

/** The approved net tax rate (its index) a revenue account's turnover belongs to: the first whose range holds it, else the first. */
function netRateIndex(rates: readonly NetTaxRate[], accountNumber: string | undefined): number {
  if (accountNumber !== undefined) {
    const number = Number(accountNumber);
    const index = rates.findIndex((rate) => (rate.accountFrom || rate.accountTo) && (!rate.accountFrom || number >= Number(rate.accountFrom)) && (!rate.accountTo || number <= Number(rate.accountTo)));
    if (index >= 0) return index;
  }
  return 0;
}

/**
 * What one coded posting (or a group of them) adds to which figure. `accountNumber` is the
 * posting's account (the net tax rate method assigns turnover by revenue account).
 */
function contributions(g: VatPostingGroup, rules: VatReturnRules, dateTo: string, accountNumber: string | undefined): Contribution[] {
  const base = toMoney(g.base);
  const amount = toMoney(g.amount);
  const percent = normalizeRatePercent(g.percent);
  const out: Contribution[] = [];
  const add = (target: Target, column: 'base' | 'tax', value: MoneyValue) => {
    if (!value.isZero()) out.push({ target, column, amount: value });
  };
  const supplyLine = (kind: 'supply' | 'acquisition') => ({ line: { kind, ziffer: vatTaxZiffer(kind, percent, dateTo), ratePercent: percent } });
  const netLine = () => {
    const index = netRateIndex(rules.netTaxRates, accountNumber);
    return { line: { kind: 'net' as const, ...netRateRow(rules.netTaxRates[index]!, index, percent, dateTo) } };
  };
  const net = rules.method === 'net';
  // The extra scalar figure a code names for its base beside the standard ones (e.g. 205 for opted supplies).
  const extraBase = (standard: readonly string[]) => (isScalar(g.zifferBase) && !standard.includes(g.zifferBase) ? g.zifferBase : null);

  switch (g.role) {
    case 'base': {
      // Net tax rate method: turnover includes the tax (the base line's own share of it).
      const turnover = net ? base.plus(amount) : base;
      if (g.kind === 'sales') {
        add({ ziffer: '200' }, 'base', turnover);
        add(net ? netLine() : supplyLine('supply'), 'base', turnover);
        const extra = extraBase(['200']);
        if (extra) add({ ziffer: extra }, 'base', turnover);
      } else if (g.kind === 'exempt') {
        add({ ziffer: '200' }, 'base', base);
        const extra = extraBase(['200']);
        if (extra) add({ ziffer: extra }, 'base', base);
      } else if (g.kind === 'reduction') {
        add({ ziffer: isScalar(g.zifferBase) ? g.zifferBase : '235' }, 'base', turnover);
        add(net ? netLine() : supplyLine('supply'), 'base', turnover.neg());
      } else if (g.kind === 'acquisition') {
        add(supplyLine('acquisition'), 'base', base);
      } else if (g.kind === 'outside') {
        if (isScalar(g.zifferBase)) add({ ziffer: g.zifferBase }, 'base', base);
      }
      break;
    }
    case 'tax': {
      if (g.kind === 'acquisition') add(supplyLine('acquisition'), 'tax', amount);
      else if (net) break; // the net tax rate method computes the tax from the turnover
      else if (g.kind === 'sales') add(supplyLine('supply'), 'tax', amount);
      else if (g.kind === 'reduction') add(supplyLine('supply'), 'tax', amount.neg());
      // 415/420 reduce input tax: booked as credits of 1170 (a negative input amount), shown positive.
      else if (g.kind === 'input' && isScalar(g.zifferTax)) add({ ziffer: g.zifferTax }, 'tax', REDUCING_INPUT_TAX.has(g.zifferTax) ? amount.neg() : amount);
      break;
    }
    case 'deduction': {
      if (!net && isScalar(g.zifferDeduction)) add({ ziffer: g.zifferDeduction }, 'tax', amount);
      break;
    }
  }
  return out;
}

/**
 * The credit balance a return accounts for on a VAT account, per posting: −(normal direction) ×
 * signed amount of its tax and deduction lines (sales tax due: +, input tax: −). Under the net tax
 * rate method input tax is not deductible (MWSTG art. 37 para. 1 and 4), yet bills still post it
 * to 1170/1171: the return clears it too, and the filing books it with the difference between the
 * tax booked at the legal rates and the tax due (3809), so no claim on the ESTV stays behind.
 */
function settledAmount(g: VatPostingGroup, _method: VatMethod): MoneyValue | null {
  if (g.role === 'base') return null;
  return toMoney(g.amount).times(-vatNormalDirection(g.kind, g.role));
}

const lineKey = (line: { kind: string; ziffer: string; ratePercent: string }) => `${line.kind}|${line.ziffer}|${line.ratePercent}`;

/** The postings a return counts: groups (agreed) or groups with the document part moved to payment dates (received). */
interface Counted {
  groups: VatPostingGroup[];
  /** The coded postings dated in the period, as booked (agreed). */
  dated: VatPostingGroup[];
  /** Received: the document postings booked in the period that wait for their payment (taken out). */
  booked: VatPostingRow[];
  /** Received: the paid shares counted in the period. */
  paid: VatPostingRow[];
}

async function countedPostings(tx: Tx, instanceId: string, basis: VatBasis, dateFrom: string, dateTo: string): Promise<Counted> {
  const groups = await selectVatGroups(tx, instanceId, dateFrom, dateTo);
  if (basis === 'agreed') return { groups, dated: groups, booked: [], paid: [] };
  const { booked, paid } = await selectDocumentVatRows(tx, instanceId, dateFrom, dateTo);
  const negated = booked.map((row): VatPostingGroup => ({ ...row, base: toFixedAmount(toMoney(row.base).neg()), amount: toFixedAmount(toMoney(row.amount).neg()) }));
  return { groups: [...groups, ...negated, ...paid], dated: groups, booked, paid };
}

async function accountNumbers(tx: Tx, instanceId: string, ids: Iterable<number>): Promise<Map<number, { number: string; name: string }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const heads = await selectLedgerAccountHeads(tx, instanceId, unique);
  return new Map(heads.map((head) => [head.id, { number: head.number, name: head.name }]));
}

/** The figures of dateFrom..dateTo and the credit balance the return accounts for per VAT account. */
export interface VatBooks {
  figures: VatFigures;
  accounts: VatAccountAmount[];
  /**
   * Credit balance of every coded posting dated in the period, per account (whatever the basis and
   * method count of it): with the account's movement, it tells uncoded postings from coded VAT the
   * return does not count (reconcileVat).
   */
  coded: VatAccountAmount[];
}

/** Figures and per-account amounts from posting groups (shared by the computation and the tests' oracle). */
function figuresOf(groups: readonly VatPostingGroup[], rules: VatReturnRules, dateTo: string, numbers: Map<number, { number: string }>): VatBooks {
  const scalars = new Map<BaseZiffer, MoneyValue>();
  const lines = new Map<string, { line: Omit<VatTaxLine, 'base' | 'tax'>; base: MoneyValue; tax: MoneyValue }>();
  for (const row of standardTaxRows(rules.method, dateTo, rules.netTaxRates)) {
    lines.set(lineKey(row), { line: row, base: new Money(0), tax: new Money(0) });
  }
  const accounts = new Map<number, MoneyValue>();
  for (const group of groups) {
    for (const c of contributions(group, rules, dateTo, numbers.get(group.accountId)?.number)) {
      if ('ziffer' in c.target) {
        scalars.set(c.target.ziffer, (scalars.get(c.target.ziffer) ?? new Money(0)).plus(c.amount));
      } else {
        const key = lineKey(c.target.line);
        const entry = lines.get(key) ?? { line: c.target.line, base: new Money(0), tax: new Money(0) };
        if (c.column === 'base') entry.base = entry.base.plus(c.amount);
        else entry.tax = entry.tax.plus(c.amount);
        lines.set(key, entry);
      }
    }
    const settled = settledAmount(group, rules.method);
    if (settled) accounts.set(group.accountId, (accounts.get(group.accountId) ?? new Money(0)).plus(settled));
  }
  const taxLines = [...lines.values()]
    .map(({ line, base, tax }) => ({ ...line, base: toFixedAmount(base), tax: line.kind === 'net' ? netRateTax(base, line.ratePercent) : toFixedAmount(tax) }))
    .sort(compareTaxLines);
  const figures = deriveVatFigures({ method: rules.method, figures: Object.fromEntries(scalars), taxLines });
  return { figures, accounts: amounts(accounts), coded: [] };
}

const amounts = (byAccount: Map<number, MoneyValue>): VatAccountAmount[] =>
  [...byAccount.entries()].filter(([, amount]) => !amount.isZero()).map(([accountId, amount]) => ({ accountId, amount: toFixedAmount(amount) })).sort((a, b) => a.accountId - b.accountId);

/** Credit balance per account of coded postings: −(normal direction) × the signed base (base lines) or tax. */
function codedBalances(groups: readonly VatPostingGroup[]): VatAccountAmount[] {
  const byAccount = new Map<number, MoneyValue>();
  for (const g of groups) {
    const signed = toMoney(g.role === 'base' ? g.base : g.amount).times(-vatNormalDirection(g.kind, g.role));
    byAccount.set(g.accountId, (byAccount.get(g.accountId) ?? new Money(0)).plus(signed));
  }
  return amounts(byAccount);
}

/** The return of dateFrom..dateTo as the books stand: all figures and the amount per VAT account. */
export async function computeVatBooks(tx: Tx, instanceId: string, rules: VatReturnRules, dateFrom: string, dateTo: string): Promise<VatBooks> {
  const { groups, dated } = await countedPostings(tx, instanceId, rules.basis, dateFrom, dateTo);
  const numbers = rules.method === 'net' ? await accountNumbers(tx, instanceId, groups.map((g) => g.accountId)) : new Map<number, { number: string }>();
  return { ...figuresOf(groups, rules, dateTo, numbers), coded: codedBalances(dated) };
}

// ------------------------------------------------------------------------------------------------
// Drill-down
// ------------------------------------------------------------------------------------------------

/** A figure to drill into: a single figure ('200', '400', '289', '399', '479') or a tax row ('303', with its rate when several share the figure). */
export interface VatFigureKey {
  ziffer: string;
  ratePercent?: string | null | undefined;
}

export interface VatDrillRow {
  entry: { id: number; dateLedger: string; description: string };
  /** The date the posting counts on (the payment's date for received consideration). */
  countedOn: string;
  account: { id: number; number: string; name: string };
  vatCode: string;
  role: string;
  ratePercent: string;
  /** What the posting adds to the figure's turnover column / tax column. */
  base: string;
  tax: string;
  /** Received consideration: the payment and the share of the document it paid. */
  payment: { entry: { id: number }; share: string } | null;
}

export interface VatDrillDown {
  ziffer: string;
  ratePercent: string | null;
  /** Which column the figure is: its turnover ('base'), its tax ('tax'), or a tax row's both. */
  column: 'base' | 'tax' | 'both';
  total: { base: string; tax: string };
  data: VatDrillRow[];
}

const DERIVED_PARTS: Record<string, { parts: string[]; negative?: string[] }> = {
  '289': { parts: ['220', '221', '225', '230', '235', '280'] },
  '479': { parts: ['400', '405', '410', '415', '420'], negative: ['415', '420'] },
};

/**
 * The postings behind one figure of dateFrom..dateTo, each with what it adds to the figure. For a
 * tax row of the net tax rate method the rows give the turnover; its tax is turnover × rate on the
 * total. 400 on `ziffer` for a figure that is not on the form or has no postings of its own (299,
 * 500, 510: drill into their parts).
 */
export async function drillVatFigure(tx: Tx, instanceId: string, rules: VatReturnRules, dateFrom: string, dateTo: string, key: VatFigureKey): Promise<VatDrillDown> {
  const ziffer = key.ziffer;
  const rate = key.ratePercent ? normalizeRatePercent(key.ratePercent) : null;
  if (['299', '500', '510'].includes(ziffer)) throw invalidField('ziffer', `${ziffer} is derived from other figures: open its parts (299 = 200 − 289; 500/510 = 399 − 479)`);
  if (!/^\d{3}$/.test(ziffer)) throw invalidField('ziffer', 'a figure of the form, e.g. 200 or 303');

  let rows: VatPostingRow[];
  if (rules.basis === 'agreed') {
    rows = await selectVatRows(tx, instanceId, dateFrom, dateTo);
  } else {
    const { booked, paid } = await selectDocumentVatRows(tx, instanceId, dateFrom, dateTo);
    const waiting = new Set(booked.map((row) => row.lineId));
    rows = [...(await selectVatRows(tx, instanceId, dateFrom, dateTo)).filter((row) => !waiting.has(row.lineId)), ...paid];
  }
  const derived = DERIVED_PARTS[ziffer];
  const isTaxRow = !isScalar(ziffer) && !derived && ziffer !== '399';
  const data: VatDrillRow[] = [];
  let totalBase = new Money(0);
  let totalTax = new Money(0);
  let netRatePercent: string | null = null;
  const numbers = new Map(rows.map((row) => [row.accountId, { number: row.accountNumber }]));
  for (const row of rows) {
    let base = new Money(0);
    let tax = new Money(0);
    for (const c of contributions(row, rules, dateTo, numbers.get(row.accountId)?.number)) {
      let sign = 1;
      if ('ziffer' in c.target) {
        const target = c.target.ziffer;
        if (derived) {
          if (!derived.parts.includes(target)) continue;
          if (derived.negative?.includes(target)) sign = -1;
        } else if (target !== ziffer) continue;
      } else {
        const line = c.target.line;
        if (ziffer === '399') {
          if (c.column !== 'tax' || line.kind === 'net') continue;
        } else if (!isTaxRow || line.ziffer !== ziffer || (rate !== null && line.ratePercent !== rate)) continue;
        if (line.kind === 'net') netRatePercent = line.ratePercent;
      }
      if (c.column === 'base') base = base.plus(c.amount.times(sign));
      else tax = tax.plus(c.amount.times(sign));
    }
    if (base.isZero() && tax.isZero()) continue;
    totalBase = totalBase.plus(base);
    totalTax = totalTax.plus(tax);
    data.push({
      entry: { id: row.entryId, dateLedger: row.dateLedger, description: row.description },
      countedOn: row.countedOn,
      account: { id: row.accountId, number: row.accountNumber, name: row.accountName },
      vatCode: row.code,
      role: row.role,
      ratePercent: normalizeRatePercent(row.percent),
      base: toFixedAmount(base),
      tax: toFixedAmount(tax),
      payment: row.payment ? { entry: { id: row.payment.entryId }, share: row.payment.share } : null,
    });
  }
  const isTaxColumn = ziffer === '399' || /^4\d\d$/.test(ziffer) || derived === DERIVED_PARTS['479'];
  const column = isTaxRow ? 'both' : isTaxColumn ? 'tax' : 'base';
  // A net tax rate row's tax is computed on its turnover, not summed from postings.
  if (isTaxRow && rules.method === 'net' && netRatePercent !== null) totalTax = toMoney(netRateTax(totalBase, netRatePercent));
  return { ziffer, ratePercent: rate, column, total: { base: toFixedAmount(totalBase), tax: toFixedAmount(totalTax) }, data };
}

// ------------------------------------------------------------------------------------------------
// Reconciliation with the VAT accounts
// ------------------------------------------------------------------------------------------------

export interface VatReconciliationAccount {
  account: { id: number; number: string; name: string };
  /** Credit minus debit of the account in the period (settlement entries left out). */
  movement: string;
  /** What the return accounts for on it (its coded tax and deduction postings, as counted). */
  inReturn: string;
  /** Postings on it without a VAT code. */
  uncoded: string;
  /**
   * Coded postings of the period the return does not count: documents booked but not paid in the
   * period, less those paid in it (received consideration); input tax (net tax rate method).
   */
  notCounted: string;
  /** movement − inReturn. */
  difference: string;
}

export interface VatReconciliation {
  accounts: VatReconciliationAccount[];
  /** The postings on VAT accounts without a VAT code (at most 200), which explain differences. */
  uncodedPostings: { entry: { id: number; dateLedger: string; description: string }; account: { id: number; number: string; name: string }; amount: string }[];
  /** True when every VAT account moved exactly by what the return accounts for. */
  isBalanced: boolean;
}

/**
 * The movements of the VAT accounts in the period beside what the return accounts for on each:
 * movement = in return + not counted + uncoded postings. Settlement entries of filed returns are
 * left out of the movements; the uncoded postings are listed only for accounts that have some.
 */
export async function reconcileVat(tx: Tx, instanceId: string, dateFrom: string, dateTo: string, books: VatBooks): Promise<VatReconciliation> {
  const ids = new Set([...(await selectVatCodeAccountIds(tx, instanceId)), ...books.accounts.map((a) => a.accountId)]);
  const movements = await selectVatAccountMovements(tx, instanceId, [...ids], dateFrom, dateTo);
  const amountOf = (list: VatAccountAmount[], id: number) => toMoney(list.find((a) => a.accountId === id)?.amount ?? '0');
  const byId = new Map(movements.map((m) => [m.accountId, m]));
  const accounts = movements
    .map((m): VatReconciliationAccount => {
      const movement = toMoney(m.movement);
      const inReturn = amountOf(books.accounts, m.accountId);
      const coded = amountOf(books.coded, m.accountId);
      return {
        account: { id: m.accountId, number: m.number, name: m.name },
        movement: toFixedAmount(movement),
        inReturn: toFixedAmount(inReturn),
        uncoded: toFixedAmount(movement.minus(coded)),
        notCounted: toFixedAmount(coded.minus(inReturn)),
        difference: toFixedAmount(movement.minus(inReturn)),
      };
    })
    .filter((a) => !(toMoney(a.movement).isZero() && toMoney(a.inReturn).isZero()));
  const withUncoded = accounts.filter((a) => !toMoney(a.uncoded).isZero()).map((a) => a.account.id);
  const uncoded = await selectUncodedVatPostings(tx, instanceId, withUncoded, dateFrom, dateTo);
  return {
    accounts,
    uncodedPostings: uncoded.map((posting) => ({
      entry: { id: posting.entryId, dateLedger: posting.dateLedger, description: posting.description },
      account: { id: posting.accountId, number: byId.get(posting.accountId)?.number ?? '', name: byId.get(posting.accountId)?.name ?? '' },
      amount: toFixedAmount(posting.amount),
    })),
    isBalanced: accounts.every((a) => toMoney(a.difference).isZero()),
  };
}
