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
  countInvoices,
  deleteInvoice,
  formOptions,
  getInvoice,
  insertInvoice,
  invoiceOfEntry,
  invoicesByUuids,
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
  openAmountOf,
  openInvoiceAmounts,
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
