/**
 * Who owns which table (issue 11 §3, docs/architecture.md "Modules"): the owner is the one module
 * whose SQL reads and writes the table; every other module asks the owner through its exported
 * functions. Decided by who writes the rows. `test/architecture/ownership.test.ts` checks that this
 * map names every table of the database catalogue and that no module's SQL names another's table.
 *
 * A table created by a new migration must be added here, or the test fails.
 */
export type Owner =
  | 'accounting'
  | 'action-log'
  | 'audit'
  | 'auth'
  | 'banking'
  | 'companies'
  | 'db' // the database's own machinery: filled by SQL functions and triggers only
  | 'dunning'
  | 'http'
  | 'identity'
  | 'instances'
  | 'invoicing'
  | 'jobs'
  | 'messaging'
  | 'mail-sync'
  | 'payables'
  | 'quotes'
  | 'recurring'
  | 'salary'
  | 'support';

export const TABLE_OWNER = {
  // db: per-instance id counters behind next_ids() (0001), called from every module's INSERTs.
  instance_counter: 'db',

  // http: stored answers of Idempotency-Key requests (0013, decision 013).
  idempotency_key: 'http',

  // instances: the workplace itself (profile, settings, onboarding).
  instance: 'instances',
  instance_letterhead: 'instances', // logo and contact block printed on documents (0041, issue 15 §6)

  // identity: people, their roles in a workplace, sessions and second factors (identity is below
  // auth: sign-in uses these, docs/architecture.md "Module order").
  server_secret: 'identity',
  app_user: 'identity',
  instance_member: 'identity',
  instance_invitation: 'identity',
  auth_session: 'identity',
  user_totp: 'identity',
  second_factor_login: 'identity',
  webauthn_credential: 'identity',
  webauthn_challenge: 'identity', // the profile lists a user's own synced accounts (spec §2.6)

  // auth: the sign-in flow with outside providers.
  user_identity: 'auth',
  sso_login: 'auth',

  audit_event: 'audit',
  action_log: 'action-log',

  // companies: counterparties and their details.
  company: 'companies',
  address: 'companies',
  payment_profile: 'companies',
  additional_property: 'companies',
  company_contact: 'companies', // contact people with e-mail, invoice language, payment terms (0034)

  // accounting: the only reader and writer of the ledger (issue 11 §3).
  account_group: 'accounting',
  ledger_account: 'accounting',
  accounting_lock: 'accounting',
  journal_entry: 'accounting',
  journal_line: 'accounting',
  account_period_balance: 'accounting',
  journal_check_pending: 'accounting',
  journal_check_armed: 'accounting',
  accounting_settings: 'accounting', // fiscal year and profit-or-loss account (0020, issue 12 §3)
  fiscal_year_closing: 'accounting',
  vat_code: 'accounting', // VAT codes (0023, decision 019); postings refer to them
  // The VAT return (issue 13 §3, 0024): registration and reporting settings, filed returns.
  vat_settings: 'accounting',
  vat_return: 'accounting',
  vat_period_balance: 'accounting', // coded postings per month, kept by triggers (0024)
  payment_tolerance: 'accounting', // write-off tolerance of document payments (0032, decision 021)
  journal_entry_word: 'accounting', // words of entry descriptions for the search, kept by triggers (0044, decision 033)

  invoice: 'invoicing',
  invoice_item: 'invoicing',
  invoice_share: 'invoicing',
  invoice_payment: 'invoicing', // payments, discounts and their reversals (0032, decision 021)
  credit_note: 'invoicing', // credit notes of sent invoices (0036, decision 027)
  credit_note_item: 'invoicing',
  invoice_charge: 'invoicing', // reminder fees and interest added to an invoice's open amount (0039, decision 030)
  invoice_word: 'invoicing', // words of invoice descriptions for the search, kept by triggers (0044, decision 033)

  // dunning: reminder levels, settings and the reminders sent (0039, decision 030).
  dunning_settings: 'dunning',
  dunning_level: 'dunning',
  dunning_reminder: 'dunning',

  // quotes: offers with an invoice's lines, their status and the invoice they became (0040, decision 031).
  quote: 'quotes',
  quote_item: 'quotes',
  // recurring: recurring-invoice templates and the invoice of each period (0040, decision 031).
  recurring_invoice: 'recurring',
  recurring_invoice_item: 'recurring',
  recurring_invoice_run: 'recurring',

  // payables: bills, their files and mails, payment runs.
  payable: 'payables',
  payable_status_event: 'payables',
  transaction_group: 'payables',
  payable_payment: 'payables', // payments of bills and expenses (0032, decision 021)
  payable_word: 'payables', // words of bill descriptions for the search, kept by triggers (0044, decision 033)
  inbox_file: 'payables',
  mail: 'payables',

  // salary: the wage-type mapping and the imported payroll journals (0035, issue 16 §3).
  salary_wage_type: 'salary',
  salary_import: 'salary',

  bank_file: 'banking',
  bank_transaction: 'banking',
  bank_match_posting: 'banking',
  bank_settings: 'banking',

  // messaging: every outgoing e-mail, stored before it is sent, and the editable templates (0034).
  // (jobs owns the pg-boss schema `pgboss`, outside the application schema this map covers.)
  outbound_message: 'messaging',
  outbound_attachment: 'messaging',

  // support: requests to the platform's support team and their replies (0037, issue 16 §2).
  support_request: 'support',
  support_reply: 'support',

  // mail-sync: connected IMAP mailboxes and the messages taken from them (0037, issue 16 §1).
  mail_account: 'mail-sync',
  mail_sync_message: 'mail-sync',
  message_template: 'messaging',
} as const satisfies Record<string, Owner>;

export type TableName = keyof typeof TABLE_OWNER;

/**
 * Read views a module publishes for the others (decision 037, migration 0050): the owner keeps
 * their columns stable; another module may join them in its own statements (a list page reads its
 * rows and its parties' names in one round trip) but never the tables behind them. Security
 * invoker views: the caller's row security applies.
 */
export const PUBLISHED_VIEW_OWNER = {
  company_head: 'companies', // instance_id, uuid, name, name_key (lower-cased name, 0051)
  address_head: 'companies', // instance_id, id, company_uuid, street, house_number, zip, city, country_id
  payment_profile_head: 'companies', // instance_id, id, company_uuid, type_id, iban, bic, account_id, archived
  ledger_account_head: 'accounting', // instance_id, id, number, name
  instance_books: 'instances', // instance_id, currency_id
} as const satisfies Record<string, Owner>;
