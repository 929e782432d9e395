/**
 * Places where a module still names a table another module owns (issue 11 §3), file → tables,
 * recorded when the ownership test was introduced. This list only shrinks: phase 2 of issue 11 drains
 * it to zero by calling the owners' exported functions instead. The test fails for a use not listed
 * here and for an entry that no longer occurs, so the list cannot go stale.
 */
export const PENDING: Readonly<Record<string, readonly string[]>> = {
  'modules/accounting/accounting.sql.ts': ['instance'],
  'modules/banking/bank-import.service.ts': ['company', 'instance', 'journal_entry', 'ledger_account', 'payable', 'payment_profile', 'transaction_group'],
  'modules/banking/reconcile.service.ts': ['company', 'ledger_account', 'payable'],
  'modules/companies/companies.service.ts': ['instance'],
  'modules/companies/companies.sql.ts': ['bank_transaction', 'instance', 'invoice', 'journal_entry', 'payable'],
  'modules/identity/two-factor.service.ts': ['instance'],
  'modules/instances/instances.service.ts': ['app_user', 'instance_member'],
  'modules/payables/mail-import.service.ts': ['company', 'ledger_account'],
  'modules/payables/outflows.ts': ['company'],
  'modules/payables/payable-history.service.ts': ['journal_entry'],
  'modules/payables/payables.service.ts': ['company', 'instance', 'journal_line', 'ledger_account', 'payment_profile'],
  'modules/payables/supplier-match.service.ts': ['company', 'payment_profile'],
  'modules/payables/transaction-groups.service.ts': ['address', 'company', 'instance', 'ledger_account', 'payment_profile'],
  'modules/wiring/wiring.ts': ['company', 'instance', 'invoice', 'payable', 'payment_profile'],
};
