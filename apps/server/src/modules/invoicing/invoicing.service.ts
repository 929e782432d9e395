/**
 * The invoicing module's facade: sales invoices (spec §3 Invoice / Invoice item, §4 Invoice status,
 * issue #4 §3). Other modules, routes and tests import from here, not from the files behind it:
 * documents (invoices and lines), postings (status changes with their journal entries), ageing
 * (debtors), import and share links.
 */
export {
  STATUS_NAMES,
  addItem,
  changeItem,
  checkInvoiceData,
  countInvoices,
  deleteInvoice,
  formOptions,
  getInvoice,
  insertInvoice,
  invoiceOfEntry,
  invoicesByUuids,
  listInvoicePage,
  listInvoices,
  ownCompany,
  removeItem,
  updateInvoice,
  type Invoice,
  type InvoiceData,
  type InvoiceItem,
  type InvoiceKey,
  type ItemData,
} from './documents.service.js';
export { changeStatus, reopenInvoicePayment, type StatusChange } from './postings.service.js';
// Payments (issue 14 §3, decision 021): banking's reconciliation calls these in its own transaction.
export {
  getInvoiceWithPayments,
  listInvoicePageWithPayments,
  openAmountOf,
  openInBooks,
  openInvoiceAmounts,
  openReceivablesOfCompanies,
  paymentsOfInvoices,
  recordInvoicePayment,
  reverseInvoicePayment,
  withPayments,
  type InvoicePayment,
  type InvoicePaymentInput,
  type InvoiceWithPayments,
  type WriteOffKind,
} from './payments.service.js';
// Credit notes (issue 15 §2, decision 027).
export { createCreditNote, getCreditNote, listCreditNotes, type CreditNote, type CreditNoteInput, type CreditNoteLineInput } from './credit-notes.service.js';
export { creditNotesOfInvoices, formatCreditNoteNumber, type CreditedAmount } from './payments.service.js';
export { listDebtors, type DebtorRow } from './ageing.service.js';
export { importInvoices, type ImportError } from './import.service.js';
export { decodeShareToken, encodeShareToken, resolveShare, revokeShare, shareInvoice } from './share-links.service.js';
export { lockSentInvoicesByReference, sentInvoiceReferences } from './payment-reference.js';
export { invoicesOfCompany, type CompanyInvoice } from './company-documents.js';
export { revenueByCustomer, type CustomerRevenue } from './customer-revenue.js';
export { openInvoicesAt, salesVatOfPeriod } from './ledger-checks.js';
// Quotes and recurring invoices (issue 15 §4, decision 031): 'Send' by e-mail and the PDF of a
// document with an invoice's lines (a quote: no payment part).
export { emailInvoice, type InvoiceEmailRequest } from './invoice-mail.js';
export { renderInvoicePdf, type Creditor, type PdfLang, type QuoteHeading } from './invoicing.pdf.js';
// Dunning fees and interest on a sent invoice (issue 15 §3, decision 030): the dunning module charges them.
export { addInvoiceCharge, chargesOfInvoices, lockInvoice, type ChargeInput, type ChargeKind, type InvoiceCharge } from './charges.service.js';
export { renderReminderLetterPdf, type ReminderLetter } from './reminder.pdf.js';
export { documentLine, trimZeros, type DocumentLine, type DocumentLineRecord } from './document-lines.js';
