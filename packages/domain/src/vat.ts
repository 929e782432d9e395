/**
 * Swiss VAT codes (Steuercodes) and the VAT split of a posting (issue 13 §1–2,
 * docs/decisions/019-vat-codes-on-postings.md). Shared by the server (which posts) and the web
 * (which shows the split before saving), so both compute the same cents.
 *
 * - A VAT code has a kind (what it reports), a rate type (standard, reduced, accommodation, zero)
 *   and no percentage of its own: the percentage follows the supply date (`vatPercentAt`), so a
 *   2023 supply booked in 2024 is taxed at 7.7 %, not 8.1 % (MWSTG art. 115 transitional rule).
 * - Its Ziffern are those of the return in force since 2024 (303, 313, 343, 383, …); for older
 *   supplies the return has its own figure per rate period (`vatZifferAt`: 303 → 302 → 301).
 * - Rounding: the tax of each coded line is rounded half-up to the cent on that line (gross:
 *   tax = gross × p / (100 + p); net: tax = net × p / 100); base = gross − tax, so base + tax is
 *   exactly what was entered.
 */
import { isAmountString, toFixedAmount, toMoney } from './money.js';

/**
 * What a code reports on the return (ESTV form, `shared/data/vat/mwst_form_ziffern.json`):
 * - sales: taxable supplies, base and tax per rate (303/313/343, 302/…); base counts in 200.
 * - input: input tax on purchases (400 material and services, 405 investments and other costs).
 * - acquisition: acquisition tax (Bezugsteuer, 383/382) on services bought abroad: posts the tax
 *   due and, in the same entry, its deduction as input tax (400/405).
 * - exempt: supplies without tax that count in 200 and are deducted again (220 export, 221
 *   abroad, 230 exempt without option).
 * - reduction: reductions of consideration (235) at a rate; reduce the tax due of that rate.
 * - outside: outside the scope of VAT; not on the return, or 900/910 (subsidies, donations).
 */
export const VAT_CODE_KINDS = ['sales', 'input', 'acquisition', 'exempt', 'reduction', 'outside'] as const;
export type VatCodeKind = (typeof VAT_CODE_KINDS)[number];

/** Rate types of MWSTG art. 25; 'zero' for codes that compute no tax. */
export const VAT_RATE_TYPES = ['standard', 'reduced', 'accommodation', 'zero'] as const;
export type VatRateType = (typeof VAT_RATE_TYPES)[number];

/** Whether the amount entered on a coded line includes the tax ('gross') or not ('net'). */
export const VAT_ENTRIES = ['gross', 'net'] as const;
export type VatEntry = (typeof VAT_ENTRIES)[number];

/**
 * Role of a posting of a coded line: the base (the entered account, net of tax), the tax (on the
 * code's VAT account), or the deduction of an acquisition tax (input tax of the same amount).
 */
export const VAT_ROLES = ['base', 'tax', 'deduction'] as const;
export type VatRole = (typeof VAT_ROLES)[number];

/** A VAT code as the API answers it (docs/api.md "VAT codes"). */
export interface VatCode {
  /** 'V81', 'M81', … unique per instance, never changes (postings refer to it). */
  code: string;
  name: string;
  kind: VatCodeKind;
  rateType: VatRateType;
  /** The account the tax goes to (sales: tax due 2200…; input: 1170/1171; acquisition: tax due); null for 'zero'. */
  accountNumber: string | null;
  /** Acquisition only: the input tax account of the deduction (1170 or 1171). */
  deductionAccountNumber: string | null;
  /** Whether amounts are entered gross or net when a line does not say. */
  defaultEntry: VatEntry;
  /** Ziffer of the base (since 2024: 303, 220, 235 …); null when the base is not reported. */
  zifferBase: string | null;
  /** Ziffer of the tax (303, 400, 405, 383 …); null for codes without tax. */
  zifferTax: string | null;
  /** Acquisition only: Ziffer of the deduction (400 or 405). */
  zifferDeduction: string | null;
  isActive: boolean;
}

/** Percentages per rate type, by supply date (MWSTG art. 25 and its amendments). */
export interface VatRatePeriod {
  /** First supply date of the period, YYYY-MM-DD. */
  from: string;
  standard: string;
  reduced: string;
  accommodation: string;
}

/**
 * Rate periods, latest first: 8.1/2.6/3.8 % from 2024-01-01 (AHV 21 financing); 7.7/2.5/3.7 % from
 * 2018-01-01; 8.0/2.5/3.8 % from 2011-01-01 (IV financing); 7.6/2.4/3.6 % before.
 */
export const VAT_RATE_PERIODS: readonly VatRatePeriod[] = [
  { from: '2024-01-01', standard: '8.1', reduced: '2.6', accommodation: '3.8' },
  { from: '2018-01-01', standard: '7.7', reduced: '2.5', accommodation: '3.7' },
  { from: '2011-01-01', standard: '8.0', reduced: '2.5', accommodation: '3.8' },
  { from: '1900-01-01', standard: '7.6', reduced: '2.4', accommodation: '3.6' },
];

/** The percentage ('8.1', '0') of a rate type for a supply on `supplyDate` (YYYY-MM-DD). */
export function vatPercentAt(rateType: VatRateType, supplyDate: string): string {
  if (rateType === 'zero') return '0';
  const period = VAT_RATE_PERIODS.find((p) => supplyDate >= p.from) ?? VAT_RATE_PERIODS[VAT_RATE_PERIODS.length - 1]!;
  return period[rateType];
}

/**
 * The rate type a rate (fraction '0.081' or percent '8.1') belongs to in any period, or undefined
 * for a rate that was never a Swiss rate. Used to turn an invoice's or a bill's rate into a code.
 */
export function vatRateTypeOf(rate: string, as: 'fraction' | 'percent' = 'fraction'): VatRateType | undefined {
  if (!isAmountString(rate, 6)) return undefined;
  const percent = as === 'fraction' ? toMoney(rate).times(100) : toMoney(rate);
  if (percent.isZero()) return 'zero';
  for (const type of ['standard', 'reduced', 'accommodation'] as const) {
    if (VAT_RATE_PERIODS.some((p) => toMoney(p[type]).eq(percent))) return type;
  }
  return undefined;
}

/**
 * The Ziffer for a supply on `supplyDate`: the figures 303/313/343/383 (since 2024) are 302/312/
 * 342/382 for supplies of 2018–2023 and 301/311/341/381 before (the form keeps a figure per rate
 * period). Other figures do not depend on the date.
 */
export function vatZifferAt(ziffer: string, supplyDate: string): string {
  const byRate: Record<string, readonly [string, string, string]> = {
    '303': ['303', '302', '301'],
    '313': ['313', '312', '311'],
    '343': ['343', '342', '341'],
    '383': ['383', '382', '381'],
  };
  const figures = byRate[ziffer];
  if (!figures) return ziffer;
  return supplyDate >= '2024-01-01' ? figures[0] : supplyDate >= '2018-01-01' ? figures[1] : figures[2];
}

/**
 * The direction (+1 debit, −1 credit) in which a posting of `role` adds to its code's figure:
 * sales, exempt and outside bases are credits (turnover), input, acquisition and reduction bases
 * debits (costs, reductions of turnover); the tax of a sale or an acquisition is a credit (tax due),
 * of an input or a reduction a debit; a deduction is a debit (input tax).
 */
export function vatNormalDirection(kind: VatCodeKind, role: VatRole): 1 | -1 {
  if (role === 'deduction') return 1;
  if (role === 'base') return kind === 'sales' || kind === 'exempt' || kind === 'outside' ? -1 : 1;
  return kind === 'sales' || kind === 'acquisition' ? -1 : 1;
}

/** What the split of one coded line needs to know about its code. */
export type VatSplitCode = Pick<VatCode, 'code' | 'kind' | 'rateType' | 'accountNumber' | 'deductionAccountNumber' | 'defaultEntry'>;

/** One posting produced by the split. Amounts are positive, 2 decimals. */
export interface VatSplitPosting {
  role: VatRole;
  /** null: the line's own account (role 'base'); else the code's account number. */
  accountNumber: string | null;
  amount: string;
  direction: 1 | -1;
}

export interface VatSplit {
  code: string;
  /** The percentage applied ('8.1', '0'). */
  percent: string;
  /** The base (net) amount, positive. */
  base: string;
  /** The tax, positive (0.00 for zero-rate codes). */
  tax: string;
  /** Signed for the return: +base/+tax when the base posting is in the code's normal direction. */
  signedBase: string;
  signedTax: string;
  postings: VatSplitPosting[];
}

/** Why a coded line cannot be split; the message names what is wrong. */
export class VatSplitError extends Error {}

/**
 * Splits one coded line (issue 13 §2): `amount` (positive, ≤ 2 decimals) on the line's account in
 * `direction`, entered gross or net (`entry`, default the code's), at the code's rate on
 * `supplyDate`. Gross 108.10 with an 8.1 % input code → base 100.00 (the line's account) + tax 8.10
 * (the code's account, same direction). Net 100.00 → the same two postings. An acquisition code
 * (always net: the price carries no Swiss VAT) keeps the base and adds the tax due (opposite
 * direction) and its deduction (same direction). A zero-rate code keeps the line as its base.
 * Throws VatSplitError for a gross acquisition entry or a split that leaves a base of 0.00.
 */
export function splitVatLine(
  line: { amount: string; direction: 1 | -1; entry?: VatEntry | null | undefined },
  code: VatSplitCode,
  supplyDate: string,
): VatSplit {
  const entry = line.entry ?? code.defaultEntry;
  if (code.kind === 'acquisition' && entry === 'gross') {
    throw new VatSplitError(`acquisition tax (${code.code}) is not included in the price: enter the amount net`);
  }
  const percent = vatPercentAt(code.rateType, supplyDate);
  const rate = toMoney(percent);
  const amount = toMoney(line.amount);
  let base = amount;
  let tax = toMoney(0);
  if (!rate.isZero()) {
    if (entry === 'gross') {
      tax = toMoney(toFixedAmount(amount.times(rate).dividedBy(rate.plus(100))));
      base = amount.minus(tax);
    } else {
      tax = toMoney(toFixedAmount(amount.times(rate).dividedBy(100)));
    }
  }
  if (base.lte(0)) throw new VatSplitError('the amount is too small to carry VAT: the base would be 0.00');
  const postings: VatSplitPosting[] = [{ role: 'base', accountNumber: null, amount: toFixedAmount(base), direction: line.direction }];
  if (!tax.isZero()) {
    const opposite = (-line.direction) as 1 | -1;
    if (code.kind === 'acquisition') {
      postings.push({ role: 'tax', accountNumber: code.accountNumber, amount: toFixedAmount(tax), direction: opposite });
      postings.push({ role: 'deduction', accountNumber: code.deductionAccountNumber, amount: toFixedAmount(tax), direction: line.direction });
    } else {
      postings.push({ role: 'tax', accountNumber: code.accountNumber, amount: toFixedAmount(tax), direction: line.direction });
    }
  }
  const sign = line.direction === vatNormalDirection(code.kind, 'base') ? 1 : -1;
  return {
    code: code.code,
    percent,
    base: toFixedAmount(base),
    tax: toFixedAmount(tax),
    signedBase: toFixedAmount(base.times(sign)),
    signedTax: toFixedAmount(tax.times(sign)),
    postings,
  };
}

/** Code pattern: 1–12 capital letters, digits, '-' or '_', starting with a letter or digit. */
export const VAT_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{0,11}$/;
/** A Ziffer of the return: three digits. */
export const VAT_ZIFFER_PATTERN = /^[0-9]{3}$/;

/**
 * The Swiss seed (docs/decisions/019): sales V, input M (400) and I (405), acquisition B, export X0,
 * abroad A0, exempt E0, reductions R, outside O. Accounts as in the Swiss SME chart and decision 008;
 * 2203 holds the acquisition tax due (created on first use like 2202).
 * Kept equal to the SQL function seed_vat_codes (migration 0023) by a test.
 */
export const SWISS_VAT_CODES: readonly Omit<VatCode, 'isActive'>[] = [
  { code: 'V81', name: 'Sales, standard rate', kind: 'sales', rateType: 'standard', accountNumber: '2200', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '303', zifferTax: '303', zifferDeduction: null },
  { code: 'V26', name: 'Sales, reduced rate', kind: 'sales', rateType: 'reduced', accountNumber: '2201', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '313', zifferTax: '313', zifferDeduction: null },
  { code: 'V38', name: 'Sales, accommodation rate', kind: 'sales', rateType: 'accommodation', accountNumber: '2202', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '343', zifferTax: '343', zifferDeduction: null },
  { code: 'X0', name: 'Exports and exempt supplies (art. 23)', kind: 'exempt', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '220', zifferTax: null, zifferDeduction: null },
  { code: 'A0', name: 'Supplies provided abroad', kind: 'exempt', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '221', zifferTax: null, zifferDeduction: null },
  { code: 'E0', name: 'Supplies exempt without credit (art. 21)', kind: 'exempt', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '230', zifferTax: null, zifferDeduction: null },
  { code: 'R81', name: 'Reduction of consideration, standard rate', kind: 'reduction', rateType: 'standard', accountNumber: '2200', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '235', zifferTax: '303', zifferDeduction: null },
  { code: 'R26', name: 'Reduction of consideration, reduced rate', kind: 'reduction', rateType: 'reduced', accountNumber: '2201', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '235', zifferTax: '313', zifferDeduction: null },
  { code: 'R38', name: 'Reduction of consideration, accommodation rate', kind: 'reduction', rateType: 'accommodation', accountNumber: '2202', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '235', zifferTax: '343', zifferDeduction: null },
  { code: 'M81', name: 'Input tax on material and services, standard rate', kind: 'input', rateType: 'standard', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '400', zifferDeduction: null },
  { code: 'M26', name: 'Input tax on material and services, reduced rate', kind: 'input', rateType: 'reduced', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '400', zifferDeduction: null },
  { code: 'M38', name: 'Input tax on material and services, accommodation rate', kind: 'input', rateType: 'accommodation', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '400', zifferDeduction: null },
  { code: 'I81', name: 'Input tax on investments and other operating costs, standard rate', kind: 'input', rateType: 'standard', accountNumber: '1171', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '405', zifferDeduction: null },
  { code: 'I26', name: 'Input tax on investments and other operating costs, reduced rate', kind: 'input', rateType: 'reduced', accountNumber: '1171', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '405', zifferDeduction: null },
  { code: 'I38', name: 'Input tax on investments and other operating costs, accommodation rate', kind: 'input', rateType: 'accommodation', accountNumber: '1171', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '405', zifferDeduction: null },
  // 410/415/420 (migration 0031): a correction or reduction is a credit on the cost account; the return shows it positive and subtracts it in 479.
  { code: 'K410', name: 'Subsequent input tax deduction (art. 32)', kind: 'input', rateType: 'standard', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '410', zifferDeduction: null },
  { code: 'K415', name: 'Input tax corrections: mixed and own use (art. 30, 31)', kind: 'input', rateType: 'standard', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '415', zifferDeduction: null },
  { code: 'K420', name: 'Input tax reductions: subsidies and donations (art. 33 para. 2)', kind: 'input', rateType: 'standard', accountNumber: '1170', deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: '420', zifferDeduction: null },
  { code: 'B81', name: 'Acquisition tax, standard rate', kind: 'acquisition', rateType: 'standard', accountNumber: '2203', deductionAccountNumber: '1170', defaultEntry: 'net', zifferBase: '383', zifferTax: '383', zifferDeduction: '400' },
  { code: 'B26', name: 'Acquisition tax, reduced rate', kind: 'acquisition', rateType: 'reduced', accountNumber: '2203', deductionAccountNumber: '1170', defaultEntry: 'net', zifferBase: '383', zifferTax: '383', zifferDeduction: '400' },
  { code: 'O0', name: 'Outside the scope of VAT', kind: 'outside', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: null, zifferTax: null, zifferDeduction: null },
  { code: 'O900', name: 'Subsidies, tourist and fund contributions (art. 18 para. 2 a-c)', kind: 'outside', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '900', zifferTax: null, zifferDeduction: null },
  { code: 'O910', name: 'Donations, dividends, damages (art. 18 para. 2 d-l)', kind: 'outside', rateType: 'zero', accountNumber: null, deductionAccountNumber: null, defaultEntry: 'gross', zifferBase: '910', zifferTax: null, zifferDeduction: null },
];

/**
 * Names of the VAT accounts the seed refers to, for creating those missing from a chart on first
 * use (as decision 008 does for 2202): 1170/1171/2200/2201 are in the Swiss SME chart.
 */
export const VAT_ACCOUNT_NAMES: Readonly<Record<string, string>> = {
  '1170': 'Vorsteuer auf Aufwand',
  '1171': 'Vorsteuer auf Investitionen',
  '2200': 'Geschuldete MWST (8.1%)',
  '2201': 'Geschuldete MWST (2.6%)',
  '2202': 'Geschuldete MWST (3.8%)',
  '2203': 'Geschuldete Bezugsteuer',
};

/** The seeded sales code of an invoice line's rate type (decision 019): V81/V26/V38, X0 for 0 %. */
export const SALES_CODE_BY_RATE_TYPE: Readonly<Record<VatRateType, string>> = { standard: 'V81', reduced: 'V26', accommodation: 'V38', zero: 'X0' };

/** The seeded input code of a bill's rate type and input VAT account (1170 → M…, 1171 → I…). */
export function inputVatCode(rateType: Exclude<VatRateType, 'zero'>, accountNumber: '1170' | '1171'): string {
  const suffix = { standard: '81', reduced: '26', accommodation: '38' }[rateType];
  return `${accountNumber === '1170' ? 'M' : 'I'}${suffix}`;
}
