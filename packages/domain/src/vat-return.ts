/**
 * The Swiss VAT return (MWST-Abrechnung, issue 13 §3): its figures (Ziffern), how the derived ones
 * follow from the others, the reporting periods and the settings' rules. Pure: the server computes
 * the base figures from postings and calls `deriveVatFigures`; the web and the PDF show the same
 * groups and labels.
 * Figures and derivations: ESTV form "MWST-Abrechnung effektive Methode" valid since 2024
 * (shared/data/vat/mwst_form_ziffern.json): 289 = 220+221+225+230+235+280; 299 = 200−289;
 * 399 = the tax of 30x/31x/34x/38x; 479 = 400+405+410−415−420; 500 = max(399−479, 0);
 * 510 = max(479−399, 0). Net tax rate method (Saldosteuersatz, MWSTG art. 37): turnover per approved
 * rate, tax = turnover × rate, no input tax (the rate covers it).
 */
import { z } from 'zod';
import { Money, toFixedAmount, toMoney, type Money as MoneyValue } from './money.js';
import { isValidSwissUid, formatSwissUid } from './validators/uid.js';
import { isValidIsoDate } from './validators/date.js';
import { strictObject } from './validators/common.js';

export const VAT_METHODS = ['effective', 'net'] as const;
/** effective: tax per rate minus input tax; net: net tax rate method (Saldosteuersatz). */
export type VatMethod = (typeof VAT_METHODS)[number];

export const VAT_BASES = ['agreed', 'received'] as const;
/** agreed (vereinbart): by invoice date; received (vereinnahmt): by payment date (MWSTG art. 39). */
export type VatBasis = (typeof VAT_BASES)[number];

export const VAT_PERIOD_KINDS = ['monthly', 'quarterly', 'half-yearly', 'yearly'] as const;
/** Reporting period (MWSTG art. 35): quarterly by default, half-yearly for the net tax rate method. */
export type VatPeriodKind = (typeof VAT_PERIOD_KINDS)[number];

/** eCH-0217 typeOfSubmission: 1 original, 2 correction (the difference), 3 yearly reconciliation. */
export const VatSubmissionType = { original: 1, correction: 2, yearly: 3 } as const;
export type VatSubmissionTypeId = (typeof VatSubmissionType)[keyof typeof VatSubmissionType];

/** The default period of a method (ESTV: net tax rate method half-yearly, effective quarterly). */
export const defaultVatPeriod = (method: VatMethod): VatPeriodKind => (method === 'net' ? 'half-yearly' : 'quarterly');

// ------------------------------------------------------------------------------------------------
// Figures
// ------------------------------------------------------------------------------------------------

/** Section I: turnover (both methods). 205 is part of 200, not a deduction. */
export const TURNOVER_ZIFFERN = ['200', '205', '220', '221', '225', '230', '235', '280', '289', '299'] as const;
/** The deductions summed into 289. */
export const DEDUCTION_ZIFFERN = ['220', '221', '225', '230', '235', '280'] as const;
/** Section II, effective method: input tax and its corrections. */
export const INPUT_TAX_ZIFFERN = ['400', '405', '410', '415', '420', '479'] as const;
/** Section III: other cash flows (MWSTG art. 18 para. 2). */
export const OTHER_FLOW_ZIFFERN = ['900', '910'] as const;
/**
 * Every single-amount figure. 470 is the net tax rate method's tax credit (forms 1050/1055); Bilan
 * keeps it at 0.00 (no export or deemed input tax compensation).
 */
export const SCALAR_ZIFFERN = [...TURNOVER_ZIFFERN, '399', ...INPUT_TAX_ZIFFERN, '470', '500', '510', ...OTHER_FLOW_ZIFFERN] as const;
export type ScalarZiffer = (typeof SCALAR_ZIFFERN)[number];
/** The figures entered from postings; the rest are derived. */
export type BaseZiffer = Exclude<ScalarZiffer, '289' | '299' | '399' | '479' | '500' | '510'>;

/** What a tax line is: a supply at a rate, acquisition tax (Bezugsteuer), or a net tax rate. */
export type VatTaxLineKind = 'supply' | 'acquisition' | 'net';

/**
 * One row of section II: the turnover at one rate and the tax on it. `base` is the turnover (net of
 * tax for supplies and acquisition tax; including tax for the net tax rate method); `ratePercent`
 * e.g. "8.1".
 */
export interface VatTaxLine {
  ziffer: string;
  kind: VatTaxLineKind;
  ratePercent: string;
  base: string;
  tax: string;
}

/** A return's figures: every scalar figure (2-decimal strings) and the tax rows. */
export interface VatFigures {
  method: VatMethod;
  figures: Record<ScalarZiffer, string>;
  taxLines: VatTaxLine[];
}

/** Input of `deriveVatFigures`: the figures read from postings (absent = 0.00). */
export interface VatBaseFigures {
  method: VatMethod;
  figures: Partial<Record<BaseZiffer, string | MoneyValue>>;
  taxLines: VatTaxLine[];
}

const ZERO = '0.00';
const sum = (values: Iterable<string | MoneyValue>): MoneyValue => {
  let total = new Money(0);
  for (const value of values) total = total.plus(toMoney(value));
  return total;
};

/**
 * All figures from the base figures: 289, 299, 399, 479 (0 for the net tax rate method: no input
 * tax), 500 and 510 as on the form (mwst_form_ziffern.json). Every amount 2 decimals.
 */
export function deriveVatFigures(base: VatBaseFigures): VatFigures {
  const value = (ziffer: BaseZiffer): MoneyValue => toMoney(base.figures[ziffer] ?? ZERO);
  const deductions = sum(DEDUCTION_ZIFFERN.map(value));
  const taxDue = sum(base.taxLines.map((line) => line.tax));
  const isNet = base.method === 'net';
  const inputTax = isNet
    ? new Money(0)
    : value('400').plus(value('405')).plus(value('410')).minus(value('415')).minus(value('420'));
  // Net tax rate method: the form credits 470 (forms 1050/1055) against the tax instead of 479.
  const credit = isNet ? value('470') : inputTax;
  const balance = taxDue.minus(credit);
  const figures = {} as Record<ScalarZiffer, string>;
  for (const ziffer of SCALAR_ZIFFERN) figures[ziffer] = ZERO;
  for (const [ziffer, amount] of Object.entries(base.figures)) figures[ziffer as ScalarZiffer] = toFixedAmount(toMoney(amount!));
  if (isNet) for (const ziffer of ['400', '405', '410', '415', '420'] as const) figures[ziffer] = ZERO;
  figures['289'] = toFixedAmount(deductions);
  figures['299'] = toFixedAmount(value('200').minus(deductions));
  figures['399'] = toFixedAmount(taxDue);
  figures['479'] = toFixedAmount(inputTax);
  figures['500'] = toFixedAmount(balance.gt(0) ? balance : new Money(0));
  figures['510'] = toFixedAmount(balance.lt(0) ? balance.neg() : new Money(0));
  return {
    method: base.method,
    figures,
    taxLines: base.taxLines.map((line) => ({ ...line, base: toFixedAmount(line.base), tax: toFixedAmount(line.tax) })),
  };
}

/** What the taxable person pays (positive) or gets back (negative): 500 − 510 (eCH-0217 `payableTax`). */
export const vatPayable = (figures: VatFigures): string => toFixedAmount(toMoney(figures.figures['500']).minus(figures.figures['510']));

/** Tax of the net tax rate method: turnover × rate %, half-up to the cent (MWSTG art. 37). */
export const netRateTax = (turnover: string | MoneyValue, ratePercent: string): string =>
  toFixedAmount(toMoney(turnover).times(toMoney(ratePercent)).dividedBy(100));

// ------------------------------------------------------------------------------------------------
// Rates and their figures
// ------------------------------------------------------------------------------------------------

/**
 * The rates in force and the figures of section II for supplies of each period (MWSTG art. 25;
 * ESTV form since 2024: 303/313/343/383 from 2024-01-01, 302/312/342/382 for 2018–2023; the
 * 2011–2017 form had 301/311/341/381). Newest first.
 */
export const VAT_FORM_RATE_PERIODS = [
  { from: '2024-01-01', standard: '8.1', reduced: '2.6', accommodation: '3.8', ziffern: { standard: '303', reduced: '313', accommodation: '343', acquisition: '383', net1: '322', net2: '332' } },
  { from: '2018-01-01', standard: '7.7', reduced: '2.5', accommodation: '3.7', ziffern: { standard: '302', reduced: '312', accommodation: '342', acquisition: '382', net1: '321', net2: '331' } },
  { from: '1900-01-01', standard: '8.0', reduced: '2.5', accommodation: '3.8', ziffern: { standard: '301', reduced: '311', accommodation: '341', acquisition: '381', net1: '321', net2: '331' } },
] as const;

/** Canonical percent text: "8.10" → "8.1", "2.50" → "2.5", "8" → "8". */
export const normalizeRatePercent = (percent: string | MoneyValue): string => toMoney(percent).toDecimalPlaces(2).toFixed();

/** The rate periods whose rows are on the form of a return ending on `formDate` (all of them without a date). */
const formPeriods = (formDate?: string) => VAT_FORM_RATE_PERIODS.filter((p) => formDate === undefined || p.from <= formDate);

/**
 * The section II figure of a supply or acquisition at `ratePercent` on the form of a return ending
 * on `formDate`: the newest rate period of that form whose rates include it. The form since 2024
 * has rows for 2024 and 2018–2023 only, so a 2.5 % supply of 2017 goes to 312 and a 3.8 % one to
 * 343 (same rate, same tax, and eCH-0217 reports per rate); on a 2018–2023 return 3.8 % is 341
 * (the 2024 rows don't exist yet). A rate no period has (a special rate) gets the standard figure
 * of the newest period, so it is still listed and summed into 399.
 */
export function vatTaxZiffer(kind: 'supply' | 'acquisition', ratePercent: string, formDate?: string): string {
  const rate = normalizeRatePercent(ratePercent);
  const periods = formPeriods(formDate);
  for (const period of periods) {
    const type = (['standard', 'reduced', 'accommodation'] as const).find((t) => normalizeRatePercent(period[t]) === rate);
    if (type) return kind === 'acquisition' ? period.ziffern.acquisition : period.ziffern[type];
  }
  const newest = periods[0] ?? VAT_FORM_RATE_PERIODS[VAT_FORM_RATE_PERIODS.length - 1]!;
  return kind === 'acquisition' ? newest.ziffern.acquisition : newest.ziffern.standard;
}

/** The net tax rate figures of a period ending on `dateTo`: 322/332 from 2024, 321/331 before. */
export function netRateZiffern(dateTo: string): [string, string] {
  const period = VAT_FORM_RATE_PERIODS.find((p) => dateTo >= p.from) ?? VAT_FORM_RATE_PERIODS[0];
  return [period.ziffern.net1, period.ziffern.net2];
}

/** First supply date of the net tax rates approved since the 2024 rate change (ESTV adjusted them with the rates). */
export const NET_TAX_RATES_SINCE = '2024-01-01';

/**
 * Whether a supply taxed at `ratePercent` (the legal rate its code applied, which follows the
 * supply date) was made before 2024: 7.7, 3.7, 8.0 and 2.5 % were never in force from 2024.
 */
export const isSupplyBefore2024 = (ratePercent: string): boolean => {
  const rate = normalizeRatePercent(ratePercent);
  const current = VAT_FORM_RATE_PERIODS[0];
  return !(['standard', 'reduced', 'accommodation'] as const).some((t) => normalizeRatePercent(current[t]) === rate) && !toMoney(rate).isZero();
};

/**
 * The row and the approved rate of net-tax-rate turnover (MWSTG art. 37; ESTV form since 2024):
 * turnover of supplies from 2024 goes to 322/332 at the rate approved now, turnover of supplies
 * up to 2023 (a legal rate of that time on the posting) to 321/331 at the rate approved then
 * (`previousRatePercent`, else the same). On a return ending before 2024 everything is 321/331 at
 * the rate approved then. `index` is the approved rate's position (first or second rate).
 */
export function netRateRow(rate: NetTaxRate, index: number, supplyRatePercent: string, dateTo: string): { ziffer: string; ratePercent: string } {
  const before = dateTo < NET_TAX_RATES_SINCE || isSupplyBefore2024(supplyRatePercent);
  const period = before ? VAT_FORM_RATE_PERIODS[1] : VAT_FORM_RATE_PERIODS[0];
  const ziffer = index === 0 ? period.ziffern.net1 : period.ziffern.net2;
  return { ziffer, ratePercent: normalizeRatePercent(before ? (rate.previousRatePercent ?? rate.ratePercent) : rate.ratePercent) };
}

/**
 * The section II rows the form always shows, even at 0.00: effective method 303/313/343/383 and
 * 302/312/342/382; net tax rate method the approved rates and 383/382.
 */
export function standardTaxRows(method: VatMethod, dateTo: string, netRates: readonly NetTaxRate[] = []): Omit<VatTaxLine, 'base' | 'tax'>[] {
  const [current, previous] = VAT_FORM_RATE_PERIODS;
  const acquisition = [
    { ziffer: current.ziffern.acquisition, kind: 'acquisition' as const, ratePercent: current.standard },
    { ziffer: previous.ziffern.acquisition, kind: 'acquisition' as const, ratePercent: previous.standard },
  ];
  if (method === 'net') {
    // The rows of supplies in the return's own period (a 2024 return: 322/332 at today's approved rates).
    const currentSupply = dateTo < NET_TAX_RATES_SINCE ? previous.standard : current.standard;
    return [...netRates.map((rate, index) => ({ ...netRateRow(rate, index, currentSupply, dateTo), kind: 'net' as const })), ...acquisition];
  }
  const supplies = (period: (typeof VAT_FORM_RATE_PERIODS)[number]) =>
    (['standard', 'reduced', 'accommodation'] as const).map((type) => ({ ziffer: period.ziffern[type], kind: 'supply' as const, ratePercent: period[type] }));
  return [...supplies(current), acquisition[0]!, ...supplies(previous), acquisition[1]!];
}

/**
 * Order of section II rows as on the form: the current rates first (303, 313, 343, 383; net tax
 * rates 322, 332), then those of 2018–2023 (302 …), then older; within a period supplies before
 * acquisition tax, then by figure and rate.
 */
export function compareTaxLines(a: Omit<VatTaxLine, 'base' | 'tax'>, b: Omit<VatTaxLine, 'base' | 'tax'>): number {
  // The last digit tells the rate period (3: 2024, 2: 2018–2023, 1: before); net tax rate figures are one lower.
  const era = (line: Omit<VatTaxLine, 'base' | 'tax'>) => Number(line.ziffer.slice(-1)) + (line.kind === 'net' ? 1 : 0);
  const kind = (line: Omit<VatTaxLine, 'base' | 'tax'>) => (line.kind === 'acquisition' ? 1 : 0);
  return era(b) - era(a) || kind(a) - kind(b) || a.ziffer.localeCompare(b.ziffer) || toMoney(b.ratePercent).comparedTo(toMoney(a.ratePercent));
}

// ------------------------------------------------------------------------------------------------
// Corrections and sums
// ------------------------------------------------------------------------------------------------

const taxLineKey = (line: Pick<VatTaxLine, 'kind' | 'ratePercent' | 'ziffer'>) => `${line.kind}|${line.ziffer}|${normalizeRatePercent(line.ratePercent)}`;

/** Σ of several returns of one method, figure by figure and tax row by tax row (the year's filed returns). */
export function addVatFigures(method: VatMethod, all: readonly VatFigures[]): VatFigures {
  return combine(method, all.map((figures) => ({ figures, sign: 1 })));
}

/** `a − b`, figure by figure, every derived figure derived again (a correction return: the difference). */
export function subtractVatFigures(a: VatFigures, b: VatFigures): VatFigures {
  return combine(a.method, [
    { figures: a, sign: 1 },
    { figures: b, sign: -1 },
  ]);
}

function combine(method: VatMethod, parts: readonly { figures: VatFigures; sign: 1 | -1 }[]): VatFigures {
  const scalar = new Map<string, MoneyValue>();
  const rows = new Map<string, { line: VatTaxLine; base: MoneyValue; tax: MoneyValue }>();
  for (const { figures, sign } of parts) {
    for (const [ziffer, amount] of Object.entries(figures.figures)) scalar.set(ziffer, (scalar.get(ziffer) ?? new Money(0)).plus(toMoney(amount).times(sign)));
    for (const line of figures.taxLines) {
      const key = taxLineKey(line);
      const row = rows.get(key) ?? { line, base: new Money(0), tax: new Money(0) };
      rows.set(key, { line: row.line, base: row.base.plus(toMoney(line.base).times(sign)), tax: row.tax.plus(toMoney(line.tax).times(sign)) });
    }
  }
  const baseFigures: Partial<Record<BaseZiffer, MoneyValue>> = {};
  for (const ziffer of SCALAR_ZIFFERN) {
    if (['289', '299', '399', '479', '500', '510'].includes(ziffer)) continue;
    baseFigures[ziffer as BaseZiffer] = scalar.get(ziffer) ?? new Money(0);
  }
  return deriveVatFigures({
    method,
    figures: baseFigures,
    taxLines: [...rows.values()].map(({ line, base, tax }) => ({ ...line, ratePercent: normalizeRatePercent(line.ratePercent), base: toFixedAmount(base), tax: toFixedAmount(tax) })).sort(compareTaxLines),
  });
}

/** True when every figure and tax row is 0.00 (nothing to correct). */
export const isZeroVatFigures = (figures: VatFigures): boolean =>
  Object.values(figures.figures).every((amount) => toMoney(amount).isZero()) &&
  figures.taxLines.every((line) => toMoney(line.base).isZero() && toMoney(line.tax).isZero());

// ------------------------------------------------------------------------------------------------
// Periods
// ------------------------------------------------------------------------------------------------

/** One reporting period: ISO dates, both inclusive, and a short label ("Q1 2024", "H2 2024", "03.2024", "2024"). */
export interface VatPeriod {
  dateFrom: string;
  dateTo: string;
  label: string;
}

const MONTHS_PER_PERIOD: Record<VatPeriodKind, number> = { monthly: 1, quarterly: 3, 'half-yearly': 6, yearly: 12 };
const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function periodLabel(kind: VatPeriodKind, year: number, index: number): string {
  switch (kind) {
    case 'monthly':
      return `${pad(index + 1)}.${year}`;
    case 'quarterly':
      return `Q${index + 1} ${year}`;
    case 'half-yearly':
      return `H${index + 1} ${year}`;
    case 'yearly':
      return String(year);
  }
}

/**
 * The periods of calendar year `year`. With a registration date, periods ending before it are left
 * out and the first one starts on it (the tax liability begins then, MWSTG art. 14).
 */
export function vatPeriodsOfYear(kind: VatPeriodKind, year: number, registrationDate?: string | null): VatPeriod[] {
  const months = MONTHS_PER_PERIOD[kind];
  const periods: VatPeriod[] = [];
  for (let index = 0; index < 12 / months; index += 1) {
    const firstMonth = index * months + 1;
    const endMonth = firstMonth + months - 1;
    const dateTo = `${year}-${pad(endMonth)}-${pad(lastDay(year, endMonth))}`;
    let dateFrom = `${year}-${pad(firstMonth)}-01`;
    if (registrationDate && dateTo < registrationDate) continue;
    if (registrationDate && dateFrom < registrationDate) dateFrom = registrationDate;
    periods.push({ dateFrom, dateTo, label: periodLabel(kind, year, index) });
  }
  return periods;
}

/** The period of kind `kind` that contains `date` (the registration date may shorten the first). */
export function vatPeriodOf(kind: VatPeriodKind, date: string, registrationDate?: string | null): VatPeriod | undefined {
  return vatPeriodsOfYear(kind, Number(date.slice(0, 4)), registrationDate).find((p) => p.dateFrom <= date && date <= p.dateTo);
}

/** True when dateFrom..dateTo is exactly one period of `kind` (a return is filed per period). */
export function isVatPeriod(kind: VatPeriodKind, dateFrom: string, dateTo: string, registrationDate?: string | null): boolean {
  const period = vatPeriodOf(kind, dateFrom, registrationDate);
  return period !== undefined && period.dateFrom === dateFrom && period.dateTo === dateTo;
}

// ------------------------------------------------------------------------------------------------
// Settings
// ------------------------------------------------------------------------------------------------

const percentPattern = /^\d{1,3}(\.\d{1,2})?$/;
const accountNumberPattern = /^\d{4,10}$/;

/**
 * One approved net tax rate (Saldosteuersatz, ESTV decision): the percent and, optionally, the
 * revenue ledger accounts its turnover comes from (numbers `accountFrom`..`accountTo`, inclusive).
 * Turnover on no rate's accounts goes to the first rate.
 */
export const netTaxRateSchema = strictObject({
  ratePercent: z
    .string()
    .refine((value) => percentPattern.test(value) && toMoney(value).gt(0) && toMoney(value).lte(100), { error: 'a percent between 0.01 and 100 with at most 2 decimals, e.g. "6.2"' }),
  accountFrom: z.string().regex(accountNumberPattern, { error: 'a ledger account number (4 to 10 digits)' }).nullish(),
  accountTo: z.string().regex(accountNumberPattern, { error: 'a ledger account number (4 to 10 digits)' }).nullish(),
  /**
   * The rate approved for supplies up to 2023-12-31 when it differed (ESTV raised most net tax
   * rates with the 2024 rates, e.g. 6.2 → 6.5): 2023 supplies in a later return use it (321/331).
   */
  previousRatePercent: z
    .string()
    .refine((value) => percentPattern.test(value) && toMoney(value).gt(0) && toMoney(value).lte(100), { error: 'a percent between 0.01 and 100 with at most 2 decimals, e.g. "6.2"' })
    .nullish(),
}).refine((rate) => !rate.accountFrom || !rate.accountTo || Number(rate.accountFrom) <= Number(rate.accountTo), {
  error: 'the range must not end before it starts',
  path: ['accountTo'],
});
export type NetTaxRate = z.infer<typeof netTaxRateSchema>;

/** The VAT number: the UID with a valid check digit (eCH-0097) and the suffix MWST, TVA or IVA. */
export const zVatNumber = z
  .string()
  .refine((value) => isValidSwissUid(value) && / (MWST|TVA|IVA)$/.test(value), { error: 'VAT number invalid: CHE-123.456.789 MWST with a valid check digit' });

/** 'CHE116281710 MWST' → 'CHE-116.281.710 MWST'. */
export const formatVatNumber = (value: string): string => formatSwissUid(value);

/**
 * vat/settings/update `data` (issue 13 §3): registration, method, period, basis and the settlement
 * account. The net tax rate method needs one or two approved rates, the effective method none;
 * `period` defaults by method (net: half-yearly, effective: quarterly).
 */
export const vatSettingsSchema = strictObject({
  vatNumber: zVatNumber,
  registrationDate: z.string().refine(isValidIsoDate, { error: 'date invalid' }),
  method: z.enum(VAT_METHODS, { error: 'method must be effective or net' }),
  netTaxRates: z.array(netTaxRateSchema).max(2, { error: 'at most two approved net tax rates' }).default([]),
  period: z.enum(VAT_PERIOD_KINDS, { error: 'period must be monthly, quarterly, half-yearly or yearly' }).nullish(),
  basis: z.enum(VAT_BASES, { error: 'basis must be agreed or received' }),
  settlementAccount: strictObject({ id: z.number().int().positive() }).nullish(),
}).superRefine((settings, ctx) => {
  if (settings.method === 'net' && settings.netTaxRates.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['netTaxRates'], message: 'the net tax rate method needs one or two approved rates' });
  }
  if (settings.method === 'effective' && settings.netTaxRates.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['netTaxRates'], message: 'net tax rates apply to the net tax rate method only' });
  }
});
export type VatSettingsInput = z.input<typeof vatSettingsSchema>;
