/** The rules an invoice and its lines must meet before they are stored (insert, update, import), collected per field. */
import {
  AccountType,
  Currency,
  INVOICE_VAT_RATES,
  PaymentProfileType,
  currencyCodeById,
  invoiceItemProblems,
  normalizeVatRate,
  toMoney,
  type CurrencyCode,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { ItemColumns } from './invoicing.sql.js';
import type { InvoiceData, ItemData } from './documents.service.js';

export async function instanceSettings(tx: Tx, instanceId: string): Promise<{ vatRate: string | null; currency: CurrencyCode }> {
  const [row] = await tx.query<{ vat_rate: string | null; currency_id: number }>(
    'SELECT vat_rate::text AS vat_rate, currency_id FROM instance WHERE id = $1',
    [instanceId],
  );
  return { vatRate: row?.vat_rate ?? null, currency: currencyCodeById(row?.currency_id ?? 1) ?? 'CHF' };
}

/** Field → message; collected so one answer names every bad field (docs/api.md "Errors"). */
export type Problems = Record<string, string>;

export function throwProblems(problems: Problems): void {
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  const [field, message] = entries[0]!;
  throw new AppError('validation', entries.length === 1 ? message : `${field}: ${message}`, problems);
}

/** The VAT rates an invoice or line may carry: the instance's rate and the Swiss ones (fractions). */
export function allowedVatRates(instanceRate: string | null): string[] {
  return [...new Set([...(instanceRate ? [normalizeVatRate(instanceRate)] : []), ...INVOICE_VAT_RATES])];
}
export const VAT_MESSAGE = 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0';

/** Revenue accounts (AccountType revenue) among `ids`, by id. */
async function revenueAccounts(tx: Tx, instanceId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND id = ANY($2::int[]) AND type_id = $3', [
    instanceId,
    [...new Set(ids)],
    AccountType.revenue,
  ]);
  return new Set(rows.map((row) => row.id));
}

/**
 * Line rules beyond the schema, field names under `prefix`: discounts (invoiceItemProblems), the
 * line's VAT rate, its revenue account (one of the instance's revenue accounts) and currency.
 */
export async function itemProblems(
  tx: Tx,
  instanceId: string,
  items: readonly ItemData[],
  context: { currency: CurrencyCode; vatRates: readonly string[] },
  prefix: (index: number) => string,
): Promise<Problems> {
  const problems: Problems = {};
  const revenue = await revenueAccounts(
    tx,
    instanceId,
    items.flatMap((item) => (item.account ? [item.account.id] : [])),
  );
  items.forEach((item, index) => {
    for (const [field, message] of Object.entries(invoiceItemProblems(item))) problems[`${prefix(index)}${field}`] ??= message;
    if (item.vat != null && !context.vatRates.some((rate) => toMoney(rate).eq(toMoney(item.vat!)))) problems[`${prefix(index)}vat`] ??= VAT_MESSAGE;
    if (item.account && !revenue.has(item.account.id)) {
      problems[`${prefix(index)}account.id`] ??= 'choose one of your revenue ledger accounts (class 3)';
    }
    if (item.currency && item.currency !== context.currency) {
      problems[`${prefix(index)}currency`] ??= `a line is in the invoice currency (${context.currency})`;
    }
  });
  return problems;
}

/** Company, address (of that company) and payment profile (of the own company, IBAN or QR bill). */
async function partyProblems(
  tx: Tx,
  instanceId: string,
  data: Pick<InvoiceData, 'company' | 'address' | 'paymentProfile'>,
): Promise<{ problems: Problems; iban: string | null }> {
  const problems: Problems = {};
  const [company] = await tx.query('SELECT 1 FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, data.company.uuid]);
  if (!company) problems['company.uuid'] = 'company not found';
  const [address] = await tx.query('SELECT 1 FROM address WHERE instance_id = $1 AND id = $2 AND company_uuid = $3', [
    instanceId,
    data.address.id,
    data.company.uuid,
  ]);
  if (!address) problems['address.id'] = 'the address must be one of the company';
  const [profile] = await tx.query<{ type_id: number; iban: string | null; own: boolean; log_is_log: boolean }>(
    `SELECT p.type_id, p.iban, p.log_is_log, p.company_uuid = i.own_company_uuid AS own
       FROM payment_profile p JOIN instance i ON i.id = p.instance_id WHERE p.instance_id = $1 AND p.id = $2`,
    [instanceId, data.paymentProfile.id],
  );
  if (!profile || !profile.own || profile.log_is_log) {
    problems['paymentProfile.id'] = 'choose one of your own active payment profiles';
  } else if ((profile.type_id !== PaymentProfileType.Iban && profile.type_id !== PaymentProfileType.QrBill) || !profile.iban) {
    problems['paymentProfile.id'] = 'the payment profile must be an IBAN or QR bill account';
  }
  return { problems, iban: profile?.iban ?? null };
}

/**
 * Currency and exchange rate (issue #4 audit §6): an invoice in the books' currency has fxRate 1;
 * one in the other QR-bill currency needs fxRate > 0 (books' currency per unit). Returns the rate to
 * store or a problem on `fxRate`.
 */
function fxProblems(currency: CurrencyCode, base: CurrencyCode, fxRate: string | undefined): { fxRate: string; problems: Problems } {
  if (currency === base) {
    if (fxRate !== undefined && !toMoney(fxRate).eq(1)) {
      return { fxRate: '1', problems: { fxRate: `an invoice in ${base}, the currency of the books, has the exchange rate 1` } };
    }
    return { fxRate: '1', problems: {} };
  }
  if (fxRate === undefined) {
    return { fxRate: '1', problems: { fxRate: `give the exchange rate of the invoice: ${base} per 1 ${currency}` } };
  }
  return { fxRate, problems: {} };
}

/** Due date: given, or the invoice date + 30 days; never before the invoice date. */
function dueProblems(dateInvoice: string, dateDue: string): Problems {
  return dateDue < dateInvoice ? { dateDue: 'the due date cannot be before the invoice date' } : {};
}

export const itemColumns = (item: ItemData, invoice: { currency: CurrencyCode; fxRate: string }): ItemColumns => ({
  label: item.name.trim(),
  quantity: item.amount,
  price: item.price,
  discount: item.discount == null || item.discount === '' ? null : item.discount,
  discountAbs: item.discountAbs == null || item.discountAbs === '' ? null : item.discountAbs,
  currencyId: Currency[invoice.currency],
  fxRate: invoice.fxRate,
  vatRate: item.vat == null ? null : item.vat,
  accountId: item.account?.id ?? null,
});

/** Everything insert and update check, collected; returns what to store. */
export async function checkInvoice(
  tx: Tx,
  instanceId: string,
  data: {
    company: { uuid: string };
    address: { id: number };
    paymentProfile: { id: number };
    vat: string;
    currency: CurrencyCode;
    fxRate: string | undefined;
    dateInvoice: string;
    dateDue: string;
    items: readonly ItemData[];
  },
): Promise<{ iban: string; fxRate: string }> {
  const settings = await instanceSettings(tx, instanceId);
  const vatRates = allowedVatRates(settings.vatRate);
  const parties = await partyProblems(tx, instanceId, data);
  const fx = fxProblems(data.currency, settings.currency, data.fxRate);
  const problems: Problems = {
    ...parties.problems,
    ...(vatRates.some((rate) => toMoney(rate).eq(toMoney(data.vat))) ? {} : { vat: VAT_MESSAGE }),
    ...fx.problems,
    ...dueProblems(data.dateInvoice, data.dateDue),
    ...(await itemProblems(tx, instanceId, data.items, { currency: data.currency, vatRates }, (index) => `items.${index}.`)),
  };
  throwProblems(problems);
  return { iban: parties.iban!, fxRate: fx.fxRate };
}

