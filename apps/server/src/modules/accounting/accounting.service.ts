/**
 * What the accounting module offers other modules (DESIGN.md: "A module owns its tables and exposes
 * functions"). Each function takes the caller's transaction from `db.withInstance`, so a document
 * and its posting commit or fail together (STYLE.md #7). Import from here, not from the files behind it.
 */
export { seedSwissSmeChart, importChart, SWISS_SME_FUNCTION_TYPES } from './chart.service.js';
export {
  upsertLedgerAccount,
  chartAccountId,
  booksCurrency,
  makeRoomForBankAccount,
  getLedgerAccount,
  listLedgerAccounts,
  type LedgerAccount,
  type LedgerAccountInput,
} from './ledger-account.service.js';
export {
  postJournalEntry,
  postJournalEntries,
  getJournalEntry,
  journalEntrySource,
  postingVatInput,
  type BatchPosting,
  type JournalEntry,
  type JournalEntryInput,
  type PostingInput,
  type PostingVatInput,
} from './journal-entry.service.js';
export { listVatCodes, findVatCodes, type VatCodeWithUse } from './vat-code.service.js';
export { withDocumentPostingWrite, isDocumentSource, type DocumentResolver, type DocumentResolvers, type PostingDocument } from './document-posting.js';
export { settlementPostings, type Settlement } from './settlement.service.js';
export {
  writeOffPostings,
  checkWriteOffTolerance,
  paymentTolerance,
  WRITE_OFF_ACCOUNTS,
  type WriteOff,
  type PaymentTolerance,
} from './write-off.service.js';
export { trialBalance, balancesAtDates, todayInSwitzerland, type TrialBalance, type TrialBalanceAccount } from './balance.service.js';
export { CLOSING_SOURCE } from './balance.sql.js';
export type { LetterheadPort } from './statements.routes.js';
export type { Letterhead } from './statements.export.js';
export { importJournal, type JournalImportResult } from './journal-import.service.js';
export {
  accountBalance,
  controlAccount,
  documentTurnovers,
  entriesOfDocuments,
  hasJournalEntries,
  reverseJournalEntry,
  reversalsOfEntries,
  entryDates,
  accountPostings,
  type AccountPosting,
  reversalDates,
  type ControlAccountKind,
  type DocumentEntry,
  type DocumentTurnover,
} from './ledger.api.js';

// Fiscal years (issue 12 §3): the instance's fiscal year of a number or a date, named by its start.
export { instanceFiscalYear, instanceFiscalYearOf, type FiscalYear } from './closing.service.js';

// Where a correction can still be posted (ledger.api.ts).
export { firstOpenDate } from './ledger.api.js';

// Accounting checks (issue 12 §2): the page, the API and the closing wizard run the same function;
// the modules above accounting implement CheckSources (wiring.ts).
export {
  runChecks,
  worstStatus,
  type BankStatement,
  type CheckItem,
  type CheckResult,
  type CheckSources,
  type CheckStatus,
  type ChecksReport,
  type DateRange,
  type DocumentsVat,
  type OpenDocument,
  type OpenPayable,
  type UnreconciledBankLine,
} from './checks.service.js';
// The VAT return (issue 13 §3): the port its routes need from the modules above.
export type { VatOrganisation, VatOrganisationPort } from './vat.routes.js';

// The search of the command palette (issue 17 §1, decision 033).
export { searchJournalEntries, type EntryHit, type EntryQuery } from './entry-search.js';
