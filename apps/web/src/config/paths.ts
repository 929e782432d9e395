/**
 * Typed route registry (STYLE.md #11): every route of spec §2.2, the login area (§2.8) and the
 * accounting import page. `path` is the React Router pattern, `getHref` builds a concrete URL and
 * `label` is the spec's label (page titles, menu entries, placeholders).
 */
type Id = string | number;

const route = <Args extends unknown[]>(path: string, label: string, getHref: (...args: Args) => string) => ({
  path,
  label,
  getHref,
});
const fixed = (path: string, label: string) => route(path, label, () => path);
const enc = (value: Id) => encodeURIComponent(String(value));

export const paths = {
  home: fixed('/', 'Dashboard'),

  // Login area (spec §2.8) and the single sign-on return point (§2.1).
  login: fixed('/login', 'Login'),
  loginAny: fixed('/login/*', 'Login'),
  loginInstance: route('/login/:b64Instance', 'Login', (b64Instance: string) => `/login/${b64Instance}`),
  signup: fixed('/login/signup', 'Sign up'),
  /** Ours (issue 16 §2): support without a session, e.g. for a user blocked by two-factor attempts. */
  loginSupport: fixed('/login/support', 'Support'),
  twoFactor: route('/login/2fa/:payload', 'Two-factor authentication', (payload: string) => `/login/2fa/${enc(payload)}`),
  ssoRedirect: route('/sso/:provider/redirect', 'Signing in', (provider: string) => `/sso/${enc(provider)}/redirect`),
  logout: fixed('/logout', 'Logout'),
  onboarding: fixed('/onboarding', 'Onboarding'),

  // Authenticated shell (spec §2.2).
  salaryImport: fixed('/salary/import', 'Import Salary'),
  invoiceImport: fixed('/invoice/import', 'Invoice Import'),
  invoices: fixed('/invoice', 'Invoices'),
  invoiceDetail: route('/invoice/:uuid/detail', 'Invoice', (uuid: string) => `/invoice/${enc(uuid)}/detail`),
  invoiceAdd: fixed('/invoice/add', 'Create Invoice'),
  debtors: fixed('/invoice/debtors', 'Debtors'),
  /** Ours (issue 15 §4): quotes (Offerten) and recurring invoices. */
  quotes: fixed('/quote', 'Quotes'),
  quoteAdd: fixed('/quote/add', 'New quote'),
  quoteDetail: route('/quote/:uuid/detail', 'Quote', (uuid: string) => `/quote/${enc(uuid)}/detail`),
  recurringInvoices: fixed('/invoice/recurring', 'Recurring invoices'),
  recurringAdd: fixed('/invoice/recurring/add', 'New recurring invoice'),
  recurringDetail: route('/invoice/recurring/:uuid', 'Recurring invoice', (uuid: string) => `/invoice/recurring/${enc(uuid)}`),
  /** Ours (issue 15 §3): the dunning run and the reminder levels. */
  dunning: fixed('/invoice/dunning', 'Dunning run'),
  /** The installation's Terms and Conditions, linked from the sign-up checkbox: no sign-in. */
  terms: fixed('/terms', 'Terms and Conditions'),
  /** Public share link of an invoice (spec §3): no sign-in. */
  publicInvoice: route('/public/invoice/:token', 'Shared invoice', (token: string) => `/public/invoice/${enc(token)}`),

  accounting: fixed('/accounting', 'Accounting'),
  trialBalance: fixed('/accounting/trial-balance', 'Trial Balance'),
  journal: fixed('/accounting/journal', 'Journal'),
  accounts: fixed('/accounting/account', 'Ledger Accounts'),
  /** With a range, the postings list opens filtered to it (`?dateFrom=…&dateTo=…`, YYYY-MM-DD). */
  accountDetail: route('/accounting/account/:id/detail', 'Account', (id: Id, range?: { dateFrom?: string | null; dateTo?: string | null }) => {
    const search = new URLSearchParams();
    if (range?.dateFrom) search.set('dateFrom', range.dateFrom);
    if (range?.dateTo) search.set('dateTo', range.dateTo);
    const query = search.toString();
    return `/accounting/account/${enc(id)}/detail${query ? `?${query}` : ''}`;
  }),
  accountReconciliation: route(
    '/accounting/account/:id/reconciliation',
    'Account Reconciliation',
    (id: Id) => `/accounting/account/${enc(id)}/reconciliation`,
  ),
  statement: fixed('/accounting/statement', 'Financials'),
  lock: fixed('/accounting/lock', 'Accounting Locks'),
  vatCodes: fixed('/accounting/vat-codes', 'VAT Codes'),
  checks: fixed('/accounting/checks', 'Accounting Checks'),
  close: fixed('/accounting/close', 'Closing'),
  /** The Swiss VAT return (issue 13 §3). */
  vat: fixed('/accounting/vat', 'VAT Return'),
  entries: fixed('/accounting/entry', 'Entries'),
  entryAdd: fixed('/accounting/entry/add', 'Add Journal Entry'),
  entryDetail: route('/accounting/entry/:id/detail', 'Journal Entry', (id: Id) => `/accounting/entry/${enc(id)}/detail`),
  accountingImport: fixed('/accounting/import', 'Import Accounting Data'),

  companies: fixed('/company', 'Companies'),
  companyAdd: fixed('/company/add', 'Create Company'),
  company: route('/company/:uuid/*', 'Company', (uuid: string, page = 'ap-ar') => `/company/${enc(uuid)}/${page}`),
  mailImport: fixed('/mail/import', 'Import Mail/Dext'),
  inbox: route('/inbox/*', 'Inbox', () => '/inbox'),
  /** Mails of the inbox (spec §3 "Mail"), under the spec's /inbox/*. */
  mails: fixed('/inbox/mail', 'Mail'),
  mailDetail: route('/inbox/mail/:id', 'Mail', (id: Id) => `/inbox/mail/${enc(id)}`),
  bills: route('/bill/*', 'Bills', () => '/bill'),
  /** One bill (issue #5 §1 "detail"), under the spec's /bill/*. */
  billDetail: route('/bill/:uuid/detail', 'Bill', (uuid: string) => `/bill/${enc(uuid)}/detail`),
  billEdit: route('/bill/:uuid/edit', 'Edit bill', (uuid: string) => `/bill/${enc(uuid)}/edit`),
  transactionGroups: fixed('/transaction-group', 'Transaction Group'),
  transactionGroupDetail: route(
    '/transaction-group/:id/detail',
    'Transaction Group',
    (id: Id) => `/transaction-group/${enc(id)}/detail`,
  ),
  reports: fixed('/report', 'Reports'),
  /** Ours (issue 12 §4): the analyses of spec §7.1 "Analytics", linked from the Reports page. */
  reportAnalytics: fixed('/report/analytics', 'Analytics'),
  settings: fixed('/settings', 'Settings'),
  profile: fixed('/profile', 'Profile'),
  // Ours (issue #3): staff of the instance, and the superadmin pages linked from the profile (spec §2.6).
  staff: fixed('/staff', 'Staff'),
  superadmin: fixed('/superadmin', 'Superadmin'),
  logs: fixed('/superadmin/logs', 'Logs'),
  analytics: fixed('/superadmin/analytics', 'Analytics'),
  /** Ours (issue 15 §5): the job runner's queues and failures. */
  jobs: fixed('/superadmin/jobs', 'Jobs'),
  /** Ours (issue 16 §2): the support queue. */
  supportQueue: fixed('/superadmin/support', 'Support queue'),
  /** Ours (issue 15 §1): every e-mail of the workplace with its status. */
  outbox: fixed('/outbox', 'Outbox'),
  support: fixed('/support', 'Support'),
  password: fixed('/password', 'Password'),
  notFound: fixed('*', 'Page Not Found'),
} as const;

export type PathName = keyof typeof paths;
