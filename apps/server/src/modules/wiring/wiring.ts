/**
 * Cross-module wiring: modules lower in the order (docs/architecture.md) declare ports for what
 * they need from modules above them; `wireModules()` builds those ports from the owners' facades
 * and `buildApp` hands them to the route plugins as options (issue 11 §3: no module global, and a
 * plugin registered without its port fails at start-up). No SQL here: wiring only composes.
 * - Company ap-ar (spec §2.2 `/company/{uuid}/ap-ar`): receivables from sent invoices, payables
 *   from open bills (pending, approved, in a transaction group).
 * - Bank statement credits (camt.053/054, issue #5 §4) → sent invoices by reference, then by amount
 *   and debtor name, paid through the invoicing module's own status change (issue #4 §3: debit bank
 *   / credit receivable at the booking date); the same for manual matches on the reconciliation page.
 * - Document postings (issue 11 §2): the invoice, bill or bank transaction behind a journal entry,
 *   so the journal routes name it (passed to the accounting routes by app.ts).
 * - Financial statements (issue 12 §4): the company named at the top of the PDF and XLSX exports.
 * - Accounting checks (issue 12 §2): open invoices, bills and expenses at a date, the documents'
 *   VAT of a period, the last bank statements and the unreconciled bank lines (checkSources).
 */
import { countryIsoCode, fxMatchDistance, InvoiceStatus, isImplausibleFxDifference, Money, toFixedAmount, type CountryId } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone, AppError, conflict } from '../../http/errors.js';
import {
  booksCurrency,
  entriesOfDocuments,
  journalEntrySource,
  reversalsOfEntries,
  type CheckSources,
  type DocumentResolver,
  type DocumentResolvers,
  type LetterheadPort,
  type VatOrganisationPort,
} from '../accounting/accounting.service.js';
import type { ApArSource, OpenAmount, OpenItem } from '../companies/ap-ar.service.js';
import { companyNames, getCompany, type CompanyDocumentCountsPort } from '../companies/companies.service.js';
import { attempt, type BankCredit, type InvoicePort, type OpenInvoice } from '../banking/bank-import.service.js';
import { isSimilarName } from '../banking/names.js';
import { bankTransactionOfEntry } from '../banking/reconcile.service.js';
import { lastStatementsAt, unreconciledBankLines } from '../banking/ledger-checks.js';
import { entriesOfMatchedDocuments } from '../banking/company-documents.js';
import {
  changeStatus,
  getInvoice,
  invoiceOfEntry,
  invoicesOfCompany,
  listInvoices,
  lockSentInvoicesByReference,
  sentInvoiceReferences,
  openInBooks,
  openInvoiceAmounts,
  openReceivablesOfCompanies,
  openInvoicesAt,
  reopenInvoicePayment,
  salesVatOfPeriod,
} from '../invoicing/invoicing.service.js';
import { instanceSummary, ownCompanyUuid } from '../instances/instances.service.js';
import { billsOfCompany, getPayable, inputVatOfPeriod, openBillsOfCompanies, openPayablesAt, type OpenBill } from '../payables/payables.service.js';

/**
 * Sent invoices of the company (spec §4: sent = open receivable). Amount = the receivable in the
 * books' currency, 2 decimals (`totalBase`: an EUR invoice's total × its fxRate, issue #4 audit §6).
 */
export const invoiceReceivables: ApArSource = {
  query: async (tx, instanceId, companyUuid) => {
    const { data } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent, companyUuid });
    const open = await openInvoiceAmounts(tx, instanceId, data);
    return data.map(
      (invoice): OpenItem => ({
        kind: 'receivable',
        document: 'invoice',
        uuid: invoice.uuid,
        id: invoice.id,
        reference: invoice.refNumber,
        date: invoice.dateInvoice,
        dueDate: invoice.dateDue,
        amount: openInBooks(invoice, open.get(invoice.uuid)),
        currency: invoice.baseCurrency,
        link: `/invoice/${invoice.uuid}/detail`,
      }),
    );
  },
  // The company list: the sent invoices of the listed companies only (one page of them, issue 18 §2).
  amounts: async (tx, instanceId, companyUuids) => {
    const open = await openReceivablesOfCompanies(tx, instanceId, companyUuids);
    return open.map(({ companyUuid, amount }): OpenAmount => ({ companyUuid, kind: 'receivable', amount }));
  },
};

/** Gross × exchange rate: the bill in the instance currency, 2 decimals half-up. */
const billAmountBase = (bill: OpenBill): string => toFixedAmount(new Money(bill.amount).times(bill.exchangeRate));

/**
 * Open bills of the company (pending, approved, in a transaction group). Amount = gross amount ×
 * exchange rate, i.e. in the instance currency, 2 decimals. The web app has no bill detail page
 * (routes/bills.tsx: list, add, creditors), so the link opens the open-bills list searched for the
 * bill's reference number, or for the supplier when the bill has none.
 */
export const billPayables: ApArSource = {
  query: async (tx, instanceId, companyUuid) => {
    const bills = await openBillsOfCompanies(tx, instanceId, [companyUuid]);
    if (bills.length === 0) return [];
    const companyName = (await companyNames(tx, instanceId, [companyUuid])).get(companyUuid) ?? '';
    const currency = await booksCurrency(tx, instanceId);
    return bills.map(
      (bill): OpenItem => ({
        kind: 'payable',
        document: 'bill',
        uuid: bill.uuid,
        id: bill.id,
        reference: bill.referenceNumber || `Bill ${bill.id}`,
        date: bill.date,
        dueDate: bill.dueDate,
        amount: billAmountBase(bill),
        currency,
        link: `/bill?${new URLSearchParams({ filterStatus: 'true', text: bill.referenceNumber || companyName })}`,
      }),
    );
  },
  amounts: async (tx, instanceId, companyUuids) =>
    (await openBillsOfCompanies(tx, instanceId, companyUuids)).map((bill): OpenAmount => ({ companyUuid: bill.companyUuid, kind: 'payable', amount: billAmountBase(bill) })),
};

/** QR reference (27 digits) or ISO 11649 creditor reference as stored on invoices: no spaces, upper case. */
const normalizeReference = (reference: string) => reference.replace(/\s+/g, '').toUpperCase();

/**
 * The sent invoices paid to bank ledger account `accountId` (their payment profile books on it), with
 * their totals in CHF: what a credit on that account can pay.
 */
async function openInvoices(tx: Tx, instanceId: string, accountId: number): Promise<OpenInvoice[]> {
  const { data } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent });
  const mine = data.filter((invoice) => invoice.paymentProfile.account?.id === accountId);
  // What is still open (decision 021): a credit for the rest of a part-paid invoice matches it.
  const open = await openInvoiceAmounts(tx, instanceId, mine);
  return mine
    .map((invoice) => ({
      uuid: invoice.uuid,
      id: invoice.id,
      refNumber: invoice.refNumber,
      company: invoice.company.name,
      date: invoice.dateInvoice,
      amount: open.get(invoice.uuid) ?? invoice.totals.total,
      currency: invoice.currency,
      amountBase: openInBooks(invoice, open.get(invoice.uuid)),
    }))
    .reverse();
}

/**
 * Pays invoice `invoiceUuid` with bank credit `credit` through the invoices module's own status
 * change (sent → paid at the booking date: debit the invoice's payment-profile account / credit
 * receivable 1100), bankRef = the bank's reference (AcctSvcrRef, else end-to-end id). A credit in the
 * books' currency pays an invoice in another currency for what arrived, with the realized exchange
 * difference (6942/6952). Refuses (409) a credit of another amount in the invoice's currency, or of
 * a third currency, or one that reached another bank account than the invoice's, since the posting
 * would then not match the bank. 409 `already_done` when the invoice is paid already.
 */
async function payInvoice(tx: Tx, instanceId: string, credit: BankCredit, invoiceUuid: string) {
  // Read without a lock: changeStatus locks the invoice and checks its status again before posting.
  const invoice = await getInvoice(tx, instanceId, invoiceUuid);
  if (invoice.status === InvoiceStatus.paid) throw alreadyDone(`invoice ${invoice.refNumber} is already paid`, { 'invoice.uuid': 'already paid' });
  if (invoice.status !== InvoiceStatus.sent) throw conflict(`invoice ${invoice.refNumber} is ${invoice.statusName}: only a sent invoice can be paid`, { 'invoice.uuid': 'not open' });
  // An invoice in another currency that reached the bank converted to the books' currency: the
  // payment books what arrived and the exchange difference (accounting/settlement.service.ts).
  const converted = invoice.currency !== credit.currency && credit.currency === invoice.baseCurrency;
  const open = (await openInvoiceAmounts(tx, instanceId, [invoice])).get(invoice.uuid) ?? invoice.totals.total;
  if (!converted && (invoice.currency !== credit.currency || !new Money(open).eq(credit.amount))) {
    throw conflict(`the bank credit is ${credit.amount} ${credit.currency}, invoice ${invoice.refNumber} has ${open} ${invoice.currency} open: book it against an account instead`, {
      'invoice.uuid': 'amount or currency differ',
    });
  }
  if (converted && isImplausibleFxDifference(invoice.totalBase, credit.amount)) {
    throw conflict(
      `the bank credit is ${credit.amount} ${credit.currency}, invoice ${invoice.refNumber} is booked at ${invoice.totalBase} ${invoice.baseCurrency}: more than 25 % apart, no exchange difference; book it against an account instead`,
      { 'invoice.uuid': 'amount differs too much' },
    );
  }
  if (invoice.paymentProfile.account?.id !== credit.accountId) {
    throw conflict(`invoice ${invoice.refNumber} is paid to another bank account (its payment profile)`, { 'invoice.uuid': 'paid to another bank account' });
  }
  const paid = await changeStatus(tx, instanceId, null, {
    uuid: invoice.uuid,
    status: InvoiceStatus.paid,
    ledgerDate: credit.bookingDate,
    bankRef: credit.accountServicerRef ?? credit.endToEndId,
    amountBase: converted ? credit.amount : undefined,
  });
  const entry = paid.entries.find((e) => e.kind === 'paid');
  return { invoiceUuid: paid.uuid, entryId: entry!.id };
}

/**
 * Invoices side of a statement import (issue #5 §4), plugged into the banking module:
 * 1. by payment reference: the sent invoice with the credit's structured reference (QRR or SCOR,
 *    SIX IG QR-bill §4.3.2 / ISO 11649) and the same amount and currency, paid to this bank account
 *    — or, for an invoice in another currency, a credit in the books' currency within 5 % of the
 *    booked amount (the bank converted it; the exchange difference is booked). Further off, a short
 *    or over payment is likelier: the credit waits for a person, with the reason;
 * 2. else by exact amount, currency and debtor name: exactly one such open invoice whose customer's
 *    name is similar to the credit's debtor (banking/names.ts: case, accents, legal form ignored).
 * A match is booked with payInvoice. A booking the ledger refuses (locked period, 409) is rolled
 * back to a savepoint and the credit stays unmatched with the reason; several candidates by name
 * leave it unmatched with that reason.
 */
const invoicePort: InvoicePort = {
  async match(tx, instanceId, credit, session) {
    // One load of the open invoices per import and account; paid ones are taken out as we go.
    const cacheKey = `openInvoices:${credit.accountId}`;
    const load = async () => (session[cacheKey] ??= await openInvoices(tx, instanceId, credit.accountId)) as OpenInvoice[];
    let candidate: OpenInvoice | undefined;
    if (credit.reference) {
      for (const uuid of await lockSentInvoicesByReference(tx, instanceId, normalizeReference(credit.reference))) {
        const found = await getInvoice(tx, instanceId, uuid);
        // Only an invoice paid to this bank account (its payment profile's) can be paid by the credit.
        if (found.paymentProfile.account?.id !== credit.accountId) continue;
        // The reference identifies the invoice: one in another currency is paid by what the bank converted.
        const converted = found.currency !== credit.currency && credit.currency === found.baseCurrency;
        if (converted && !fxMatchDistance(found.totalBase, credit.amount)) {
          return {
            reason: `invoice ${found.refNumber} (${found.totals.total} ${found.currency}) is booked at ${found.totalBase} ${found.baseCurrency}, the credit is ${credit.amount} ${credit.currency}: more than 5 % apart, a part payment? Match by hand or book against an account`,
          };
        }
        // What is open, not the total: a part payment, a credit note or a dunning fee (decision 030) changed it.
        const open = (await openInvoiceAmounts(tx, instanceId, [found])).get(found.uuid) ?? found.totals.total;
        if (converted || (found.currency === credit.currency && new Money(open).eq(credit.amount))) {
          candidate = { uuid: found.uuid, id: found.id, refNumber: found.refNumber, company: found.company.name, date: found.dateInvoice, amount: open, currency: found.currency, amountBase: found.totalBase };
          break;
        }
      }
    }
    if (!candidate && credit.counterparty) {
      const byName = (await load()).filter(
        (invoice) => invoice.currency === credit.currency && new Money(invoice.amount).eq(credit.amount) && isSimilarName(invoice.company, credit.counterparty),
      );
      if (byName.length > 1) return { reason: `${byName.length} open invoices (${byName.map((i) => i.refNumber).join(', ')}) match amount and debtor name: match by hand` };
      candidate = byName[0];
    }
    if (!candidate) return null;
    const chosen = candidate;
    const booked = await attempt(tx, () => payInvoice(tx, instanceId, credit, chosen.uuid));
    if ('reason' in booked) return { reason: `invoice ${chosen.refNumber}: ${booked.reason}` };
    if (session[cacheKey]) session[cacheKey] = (session[cacheKey] as OpenInvoice[]).filter((invoice) => invoice.uuid !== chosen.uuid);
    return booked.value;
  },
  async sentReferences(tx, instanceId, references) {
    const found = await sentInvoiceReferences(tx, instanceId, references.map(normalizeReference));
    return new Set(references.filter((reference) => found.has(normalizeReference(reference))));
  },
  pay: payInvoice,
  open: openInvoices,
  reopen: reopenInvoicePayment,
};

/** Undefined instead of a 404: a resolver that finds nothing falls back to the entry's source. */
async function unlessNotFound<T>(find: () => Promise<T>): Promise<T | undefined> {
  try {
    return await find();
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

const invoiceDocument: DocumentResolver = async (tx, instanceId, entry) => {
  const invoice = await unlessNotFound(() => invoiceOfEntry(tx, instanceId, entry.id));
  return invoice ? { type: 'invoice', reference: invoice.refNumber, uuid: invoice.uuid, link: `/invoice/${invoice.uuid}/detail` } : null;
};

/**
 * Bookings and payments name the bill's uuid in source_ref; reversals (payables reverseEntry: a
 * rejected or cancelled bill, a pain.002 rejection) the id of the entry they reverse.
 */
const billDocument: DocumentResolver = async (tx, instanceId, entry) => {
  let billUuid = entry.sourceRef;
  if (billUuid && /^\d+$/.test(billUuid)) billUuid = (await unlessNotFound(() => journalEntrySource(tx, instanceId, Number(billUuid))))?.sourceRef ?? null;
  if (!billUuid || !/^[0-9a-f-]{36}$/i.test(billUuid)) return null;
  const bill = await unlessNotFound(() => getPayable(tx, instanceId, { uuid: billUuid }));
  if (!bill) return null;
  return {
    type: bill.isExpense ? 'expense' : 'bill',
    reference: `${bill.id}${bill.company ? ` ${bill.company.name}` : ''}${bill.referenceNumber ? ` (${bill.referenceNumber})` : ''}`,
    uuid: bill.uuid,
    link: `/bill/${bill.uuid}/detail`,
  };
};

const bankDocument: DocumentResolver = async (tx, instanceId, entry) => {
  if (!entry.sourceRef || !/^\d{1,9}$/.test(entry.sourceRef)) return null;
  const found = await bankTransactionOfEntry(tx, instanceId, Number(entry.sourceRef));
  return found ? { type: 'bank transaction', reference: found.label, uuid: null, link: `/accounting/account/${found.accountId}/reconciliation` } : null;
};

/** The documents behind journal entries, by journal_entry.source (accounting document-posting.ts). */
const documentResolvers: DocumentResolvers = { invoice: invoiceDocument, bill: billDocument, payment: billDocument, bank: bankDocument };

/**
 * What keeps a company (issue #4 §1 delete rule): its invoices and bills, and each entry once that
 * belongs to one of them — an invoice's sent, paid and denied entries and those with source
 * 'invoice' naming it; a bill's booking and payment and those with source 'bill' / 'payment'
 * naming it; the entry of a bank transaction matched to one of them; and the reversals (source
 * 'bill', source_ref the reversed entry's id) of any of these, e.g. a bill back to pending.
 */
const companyDocumentCounts: CompanyDocumentCountsPort = async (tx, instanceId, companyUuid) => {
  const invoices = await invoicesOfCompany(tx, instanceId, companyUuid);
  const bills = await billsOfCompany(tx, instanceId, companyUuid);
  const invoiceUuids = invoices.map((invoice) => invoice.uuid);
  const billUuids = bills.map((bill) => bill.uuid);
  const direct = (entries: { id: number; reverses: number | null }[]) => entries.filter((entry) => entry.reverses === null).map((entry) => entry.id);
  const entries = new Set([
    ...invoices.flatMap((invoice) => invoice.entryIds),
    ...bills.flatMap((bill) => bill.entryIds),
    ...direct(await entriesOfDocuments(tx, instanceId, ['invoice'], invoiceUuids)),
    ...direct(await entriesOfDocuments(tx, instanceId, ['bill', 'payment'], billUuids)),
    ...(await entriesOfMatchedDocuments(tx, instanceId, { invoiceUuids, payableIds: bills.map((bill) => bill.id) })),
  ]);
  for (const id of await reversalsOfEntries(tx, instanceId, 'bill', [...entries])) entries.add(id);
  return { invoices: invoices.length, bills: bills.length, postings: entries.size };
};

/**
 * The company the books are of, for the head of the financial statements: the own company (name,
 * UID, first address as "street number" and "zip city", the country's ISO code added abroad), else
 * the instance's name before onboarding.
 */
const statementLetterhead: LetterheadPort = async (tx, instanceId) => {
  const uuid = await ownCompanyUuid(tx, instanceId);
  const company = uuid ? await unlessNotFound(() => getCompany(tx, instanceId, uuid, uuid)) : undefined;
  if (!company) return { name: (await instanceSummary(tx, instanceId))?.name ?? '', addressLines: [], uid: null };
  const address = company.address;
  const addressLines = address
    ? [
        [address.street, address.houseNumber].filter(Boolean).join(' '),
        [address.country.id === 1 ? '' : countryIsoCode[address.country.id as CountryId], address.zip, address.city].filter(Boolean).join(' '),
      ].filter(Boolean)
    : [];
  return { name: company.name, addressLines, uid: company.uid };
};

/**
 * The accounting checks' view of the documents (accounting/checks.service.ts): each module answers
 * for its own documents (invoicing/ledger-checks.ts, payables/ledger-checks.ts,
 * banking/ledger-checks.ts), in the books' currency.
 */
const checkSources: CheckSources = { openInvoicesAt, openPayablesAt, lastStatementsAt, unreconciledBankLines, salesVatOfPeriod, inputVatOfPeriod };

/**
 * The taxable person of the VAT return (issue 13 §3): the company of the statements' letterhead.
 */
const vatOrganisation: VatOrganisationPort = async (tx, instanceId) => {
  const letterhead = await statementLetterhead(tx, instanceId);
  return { name: letterhead.name, address: letterhead.addressLines };
};

/** The ports of the lower modules, built from the upper modules' facades; what `buildApp` passes on. */
export interface Wiring {
  /** companies: open receivables (sent invoices) and payables (open bills) of a company. */
  apArSources: readonly ApArSource[];
  /** banking: bank credits → sent invoices. */
  invoicePort: InvoicePort;
  /** accounting: the document behind a document posting. */
  documentResolvers: DocumentResolvers;
  /** accounting: open documents, statements and documents' VAT for the accounting checks. */
  checkSources: CheckSources;
  /** companies: the documents that keep a company from being deleted. */
  companyDocumentCounts: CompanyDocumentCountsPort;
  /** companies: the workplace's own company (instances). */
  ownCompany: typeof ownCompanyUuid;
  /** accounting: the company named on the financial statements. */
  statementLetterhead: LetterheadPort;
  /** accounting: the taxable person named on the VAT return. */
  vatOrganisation: VatOrganisationPort;
}

/** The modules' ports, plugged together; called once by `buildApp` (app.ts). */
export function wireModules(): Wiring {
  return {
    apArSources: [invoiceReceivables, billPayables],
    invoicePort,
    documentResolvers,
    checkSources,
    companyDocumentCounts,
    ownCompany: ownCompanyUuid,
    statementLetterhead,
    vatOrganisation,
  };
}
