/** The rules an invoice and its lines must meet before they are stored (insert, update, import), collected per field. */
import {
  AccountType,
  Currency,
  INVOICE_VAT_RATES,
  PaymentProfileType,
  invoiceItemProblems,
  normalizeVatRate,
  toMoney,
  type CurrencyCode,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { invoicingError } from './invoicing.errors.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { addressesById, companyHeadsByUuid, listPaymentProfiles } from '../companies/companies.service.js';
import { instanceDefaults } from '../instances/instances.service.js';
import type { ItemColumns } from './invoicing.sql.js';
import type { InvoiceData, ItemData } from './documents.service.js';

/** Field → message; collected so one answer names every bad field (docs/api.md "Errors"). */
export type Problems = Record<string, string>;

export function throwProblems(problems: Problems): void {
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  const [field, message] = entries[0]!;
  throw invoicingError('invoice_invalid', entries.length === 1 ? message : `${field}: ${message}`, problems);
}

/** The VAT rates an invoice or line may carry: the instance's rate and the Swiss ones (fractions). */
export function allowedVatRates(instanceRate: string | null): string[] {
  return [...new Set([...(instanceRate ? [normalizeVatRate(instanceRate)] : []), ...INVOICE_VAT_RATES])];
}
export const VAT_MESSAGE = 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0';

/** Revenue accounts (AccountType revenue) among `ids`, by id, asked of accounting. */
async function revenueAccounts(tx: Tx, instanceId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const accounts = await listLedgerAccounts(tx, instanceId, { ids: [...new Set(ids)], type: AccountType.revenue });
  return new Set(accounts.map((account) => account.id));
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
  ownCompanyUuid: string | null,
): Promise<{ problems: Problems; iban: string | null }> {
  const problems: Problems = {};
  const companies = await companyHeadsByUuid(tx, instanceId, [data.company.uuid]);
  if (!companies.has(data.company.uuid)) problems['company.uuid'] = 'company not found';
  const address = (await addressesById(tx, instanceId, [data.address.id])).get(data.address.id);
  if (address?.company.uuid !== data.company.uuid) problems['address.id'] = 'the address must be one of the company';
  const [found] = await listPaymentProfiles(tx, instanceId, { ids: [data.paymentProfile.id] });
  const profile = found && { type_id: found.type, iban: found.iban, log_is_log: found.logIsLog, own: found.company.uuid === ownCompanyUuid };
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
  const settings = await instanceDefaults(tx, instanceId);
  const vatRates = allowedVatRates(settings.vatRate);
  const parties = await partyProblems(tx, instanceId, data, settings.ownCompanyUuid);
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

