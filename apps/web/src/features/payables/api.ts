/** Payables, transaction groups and bank files (docs/api.md "Payables", "Transaction groups", "Banking"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, fetchFile, getAccessToken, uploadText, type ApiBody, type ApiResult } from '../../lib/api';
import { ApiError } from '../../lib/api';
import { saveBlob } from '../../lib/save-file';
import { isPurchaseAccount } from '@bilan/domain';
import { i18next, msg } from '../../lib/i18n';

export const payablesKey = ['payables'] as const;

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type Payable = ApiResult<'post', '/api/payable/detail'>;
export type TransactionGroup = ApiResult<'get', '/api/transaction-group/list'>['data'][number];
export type PayableFilters = NonNullable<NonNullable<ApiBody<'/api/payable/list'>>['filters']>;
export type PayableData = ApiBody<'/api/payable/insert'>['data'];

export const payableStatusLabel: Record<number, string> = {
  1: msg('Pending'),
  2: msg('Approved'),
  3: msg('In transaction group'),
  4: msg('Paid'),
  5: msg('Cancelled'),
};
export const payableStatusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'violet', 4: 'green', 5: 'red' };
export const groupStatusLabel: Record<number, string> = { 1: msg('Pending'), 4: msg('Initiated'), 2: msg('Paid'), 3: msg('Denied') };
export const groupStatusColor: Record<number, string> = { 1: 'gray', 4: 'blue', 2: 'green', 3: 'red' };
export const bankStatusLabel: Record<number, string> = {
  1: msg('Pending'),
  2: msg('Paid'),
  3: msg('Accepted (pain.002)'),
  4: msg('Rejected (pain.002)'),
  5: msg('Partly accepted (pain.002)'),
};

/** Rows per page of the bills and mail lists (the server pages, like the invoices list). */
export const PAGE_SIZE = 50;

export const payableListQuery = (filters: PayableFilters, page: number) =>
  queryOptions({
    queryKey: [...payablesKey, 'list', filters, page],
    queryFn: ({ signal }) => api.post('/api/payable/list', { filters, page, pageSize: PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });

export type Creditors = ApiResult<'get', '/api/payable/creditors'>;
export type Creditor = Creditors['data'][number];

export const payableDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...payablesKey, 'detail', uuid],
    queryFn: ({ signal }) => api.post('/api/payable/detail', { uuid }, { signal }),
  });

export type PayableHistory = ApiResult<'post', '/api/payable/history'>;

/** Status changes, postings and vouchers of one bill (`/api/payable/history`). */
export const payableHistoryQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...payablesKey, 'history', uuid],
    queryFn: ({ signal }) => api.post('/api/payable/history', { uuid }, { signal }),
  });

/**
 * Changes the fields of a pending bill (`/api/payable/update`); given fields replace, others stay.
 * `employee` names a new employee of a staff expense, `fileUuid` adds an uploaded receipt, both in
 * the same transaction.
 */
export const updatePayable = (uuid: string, data: Partial<PayableData>, employee?: EmployeeData, fileUuid?: string) =>
  api.post('/api/payable/update', { uuid, data, ...(employee ? { employee } : {}), ...(fileUuid ? { file: { uuid: fileUuid } } : {}) });

/** A person staff expenses were owed to, with the IBAN profile of their latest expense (`GET /api/payable/employees`). */
export type Employee = ApiResult<'get', '/api/payable/employees'>['data'][number];

export const employeesQuery = () =>
  queryOptions({ queryKey: [...payablesKey, 'employees'], queryFn: ({ signal }) => api.get('/api/payable/employees', { signal }) });

export const creditorsQuery = () =>
  queryOptions({ queryKey: [...payablesKey, 'creditors'], queryFn: ({ signal }) => api.get('/api/payable/creditors', { signal }) });

/** An own bank account a transaction group can pay from (GET /api/transaction-group/debtor-accounts). */
export type DebtorAccount = ApiResult<'get', '/api/transaction-group/debtor-accounts'>['data'][number];

export const debtorAccountsQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'debtor-accounts'],
    queryFn: ({ signal }) => api.get('/api/transaction-group/debtor-accounts', { signal }),
  });

export const groupListQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'groups'],
    queryFn: ({ signal }) => api.get('/api/transaction-group/list', { signal }),
  });

export const groupDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [...payablesKey, 'group', id],
    queryFn: ({ signal }) => api.post('/api/transaction-group/detail', { id }, { signal }),
  });

export type CompanyOption = ApiResult<'get', '/api/company/list'>['data'][number];
export type ProfileOption = ApiResult<'post', '/api/payment-profile/list'>['data'][number];
export type AccountOption = ApiResult<'post', '/api/accounting/account/list'>['data'][number];

/**
 * The companies named like a QR-bill's creditor (the bill form's supplier match by name): a search,
 * not every company of the instance.
 */
export const companiesNamedQuery = (name: string | null) =>
  queryOptions({
    queryKey: [...payablesKey, 'companies-named', name],
    queryFn: ({ signal }) => api.post('/api/company/list', { filters: { text: name ?? '' }, pageSize: 20 }, { signal }),
    enabled: !!name,
  });

/** The workplace's own company (its address's company; onboarding gives it one), never a bill's supplier. */
export const ownCompanyQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'own-company'],
    queryFn: async ({ signal }) => (await api.get('/api/instance/detail', { signal })).address?.company.uuid ?? null,
  });

/**
 * The active payment profiles of one company, for the bill form's picker: a company has a handful,
 * so one page of the server's largest size holds them all.
 */
export const profilesQuery = (companyUuid: string | null) =>
  queryOptions({
    queryKey: [...payablesKey, 'profiles', companyUuid],
    queryFn: ({ signal }) => api.post('/api/payment-profile/list', { filters: { company: { uuid: companyUuid ?? '' } }, pageSize: 500 }, { signal }),
    enabled: !!companyUuid,
  });

/**
 * The active payment profiles with a QR-bill's IBAN (`iban`: normalized, no spaces), to show which
 * supplier it already belongs to; disabled without an IBAN. The server filters, so this stays one
 * short page however many profiles the instance has.
 */
export const ibanProfilesQuery = (iban: string | null) =>
  queryOptions({
    queryKey: [...payablesKey, 'profiles', 'iban', iban],
    queryFn: ({ signal }) => api.post('/api/payment-profile/list', { filters: { iban: iban ?? '' }, pageSize: 500 }, { signal }),
    enabled: !!iban,
  });

export const expenseAccountsQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'accounts'],
    // What a purchase can be booked to: expense classes 4–6 and capitalised fixed assets (1510 Mobiliar…).
    queryFn: async ({ signal }) => {
      const answer = await api.post('/api/accounting/account/list', {}, { signal });
      const data = answer.data.filter((account) => isPurchaseAccount(account.number));
      return { data, total: data.length };
    },
  });

export const insertPayable = (data: PayableData) => api.post('/api/payable/insert', { data });

/** The supplier a QR-bill names, matched (IBAN, UID, name) or created by the server with the bill. */
export type SupplierData = NonNullable<ApiBody<'/api/payable/insert'>['supplier']>;

/** A staff expense's new employee (name and IBAN), matched or created by the server with the expense. */
export type EmployeeData = NonNullable<ApiBody<'/api/payable/insert'>['employee']>;

/**
 * Saves a bill in one call, one transaction (`/api/payable/insert`): with `supplier` the server
 * matches or creates the supplier and its payment profile, with `employee` a staff expense's
 * employee; with `fileUuid` the inbox file becomes the bill's voucher (its mail is then processed).
 * A failure writes nothing.
 */
export const confirmPayable = (data: PayableData, supplier?: SupplierData, fileUuid?: string, employee?: EmployeeData) =>
  api.post('/api/payable/insert', {
    data,
    ...(supplier ? { supplier } : {}),
    ...(employee ? { employee } : {}),
    ...(fileUuid ? { file: { uuid: fileUuid } } : {}),
  });
export const changePayableStatus = (uuid: string, status: 1 | 2 | 5) => api.post('/api/payable/update', { uuid, data: { status } });
export const deletePayable = (uuid: string) => api.post('/api/payable/delete', { uuid });
export interface GroupOptions {
  /** Requested execution date per bill, same order as the uuids. */
  executionDates?: string[];
  /** The paying own bank ledger account. */
  debtorAccountId?: number;
  executionDate?: string;
}
export const insertGroup = (uuids: string[], options: GroupOptions = {}) =>
  api.post('/api/transaction-group/insert', {
    payable: { uuids, ...(options.executionDates ? { executionDates: options.executionDates } : {}) },
    ...(options.debtorAccountId ? { debtor: { account: { id: options.debtorAccountId } } } : {}),
    ...(options.executionDate ? { executionDate: options.executionDate } : {}),
  });
/**
 * Pays an approved bill outside a payment batch (POST /api/payable/pay). `token` makes a retry of
 * the same payment harmless: the dialog makes one per opening.
 */
/** `amountBase`: a bill in another currency, what left the account in the books' currency (decision 012). */
/** Pays a bill in full or in part (`/api/payable/pay`, issue 14 §3); `token` books it once. */
export type PayBody = ApiBody<'/api/payable/pay'>;
export const payPayable = (body: PayBody) => api.post('/api/payable/pay', body);
/** Reverses one payment of a bill (`/api/payable/payment/reverse`). */
export const reversePayablePayment = (uuid: string, date?: string) => api.post('/api/payable/payment/reverse', { uuid, ...(date ? { date } : {}) });
export const changeGroupStatus = (id: number, status: ApiBody<'/api/transaction-group/status/change'>['status'], date?: string) =>
  api.post('/api/transaction-group/status/change', { id, status, ...(date ? { date } : {}) });
export const deleteGroup = (id: number) => api.post('/api/transaction-group/delete', { id });

export type ImportResult = ApiResult<'post', '/api/banking/integrations/transactions'>;
export const importBankFile = (xml: string) => uploadText('/api/banking/integrations/transactions', xml, { contentType: 'application/xml' });

/** Fetches a file with the session token and saves it under `fileName` (the browser's download). */
export async function downloadFile(method: 'GET' | 'POST', path: string, fileName: string, body?: unknown): Promise<void> {
  saveBlob(await (await fetchFile(method, path, body)).blob(), fileName);
}

export const downloadOutflows = () => downloadFile('GET', '/api/payable/list?format=csv', 'ExportOutflows.csv');
export const downloadPain001 = (id: number) => downloadFile('POST', '/api/transaction-group/pain001', `TG${id}-pain001.xml`, { id });

export type Reconciliation = ApiResult<'get', '/api/banking/integrations/reconcile'>;
export type UnmatchedTransaction = Reconciliation['unmatched'][number];
/** An open invoice (money in) or bill (money out) of the same amount, for the manual match. */
export type MatchSuggestion = UnmatchedTransaction['suggestions'][number];

export type OpenPosting = Reconciliation['openPostings'][number];
export type ReconciledLine = Reconciliation['reconciledLines'][number];

/** The reconciliation of a bank ledger account, its summary at `date` (YYYY-MM-DD; default today on the server). */
export const reconcileQuery = (accountId: number, date?: string) =>
  queryOptions({
    queryKey: [...payablesKey, 'reconcile', accountId, date ?? null],
    queryFn: ({ signal }) => api.get('/api/banking/integrations/reconcile', { query: date ? { account: accountId, date } : { account: accountId }, signal }),
  });

/** Reconciles bank lines with postings already in the books (journal line ids from `openPostings`); books nothing. */
export const matchToPostings = (bankTransactionIds: number[], postingIds: number[]) =>
  api.post('/api/banking/integrations/reconcile/postings', { bankTransactions: bankTransactionIds.map((id) => ({ id })), postings: postingIds.map((id) => ({ id })) });

/** Unmatches a reconciled line (and the lines reconciled with it); what the match booked is reversed. */
export const unmatchBankTransaction = (id: number) => api.post('/api/banking/integrations/reconcile/unmatch', { bankTransaction: { id } });

export const ignoreBankTransaction = (id: number, reason: string) => api.post('/api/banking/integrations/reconcile/ignore', { bankTransaction: { id }, reason });

export const unignoreBankTransaction = (id: number) => api.post('/api/banking/integrations/reconcile/unignore', { bankTransaction: { id } });

export const bankSettingsQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'bank-settings'],
    queryFn: ({ signal }) => api.get('/api/banking/settings', { signal }),
  });

/** Sets the ledger account bank charges are booked to (owner, admin). */
export const updateChargesAccount = (accountId: number) => api.post('/api/banking/settings/update', { chargesAccount: { id: accountId } });

/** Deletes a bank file import with its lines (none of them reconciled). */
export const deleteBankFile = (id: number) => api.post('/api/banking/integrations/file/delete', { id });

/** Manual match: books the bank transaction as the payment of the chosen invoice or bill. */
export const matchBankTransaction = (bankTransactionId: number, suggestion: Pick<MatchSuggestion, 'kind' | 'uuid'>) =>
  api.post('/api/banking/integrations/reconcile/match', {
    bankTransaction: { id: bankTransactionId },
    ...(suggestion.kind === 'invoice' ? { invoice: { uuid: suggestion.uuid } } : { payable: { uuid: suggestion.uuid } }),
  });

export const bookBankTransaction = (accountId: number, bankTransactionId: number, counterAccountId: number) =>
  api.post('/api/banking/integrations/reconcile', { account: { id: accountId }, bankTransaction: { id: bankTransactionId }, counterAccount: { id: counterAccountId } });

export const importStatement = (xml: string, accountId: number) =>
  uploadText('/api/banking/integrations/transactions', xml, { contentType: 'application/xml', query: { account: accountId } });

export const allAccountsQuery = () =>
  queryOptions({
    queryKey: [...payablesKey, 'all-accounts'],
    queryFn: ({ signal }) => api.post('/api/accounting/account/list', {}, { signal }),
  });

export type InboxFile = ApiResult<'post', '/api/file/list'>['data'][number];
export type Mail = ApiResult<'post', '/api/mail/list'>['data'][number];

export const mailStatusLabel: Record<number, string> = { 1: msg('Pending'), 2: msg('Processed'), 3: msg('Refused') };
export const mailStatusColor: Record<number, string> = { 1: 'yellow', 2: 'green', 3: 'gray' };

export type MailFilters = NonNullable<NonNullable<ApiBody<'/api/mail/list'>>['filters']>;

export const mailListQuery = (filters: MailFilters, page = 1) =>
  queryOptions({
    queryKey: [...payablesKey, 'mails', filters, page],
    queryFn: ({ signal }) => api.post('/api/mail/list', { filters, page, pageSize: PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });

/** Pending → processed 2 or refused 3 (`/api/mail/update`). */
export const changeMailStatus = (id: number, status: 2 | 3) => api.post('/api/mail/update', { id, data: { status } });

/** What an upload answers: the stored file, or for an .eml the mail read from it. */
export type UploadResult = ApiResult<'post', '/api/file/upload'>;

export type FileFilters = NonNullable<NonNullable<ApiBody<'/api/file/list'>>['filters']>;

/** A page (from 1, PAGE_SIZE files) of the inbox files of `filters`, newest first. */
export const filesQuery = (filters: FileFilters, page = 1) =>
  queryOptions({
    queryKey: [...payablesKey, 'files', filters, page],
    queryFn: ({ signal }) => api.post('/api/file/list', { filters, page, pageSize: PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });

/** One inbox file by uuid (`data` empty when there is none; not asked for what is no uuid). */
export const fileQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...payablesKey, 'files', 'one', uuid],
    queryFn: ({ signal }) => api.post('/api/file/list', { filters: { uuid } }, { signal }),
    enabled: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid),
  });

export const deleteFile = (uuid: string) => api.post('/api/file/delete', { uuid });

/** Content type of a dropped file the server accepts, from its type or its extension (.eml). */
export function inboxContentType(file: File): string | null {
  if (['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'message/rfc822'].includes(file.type)) return file.type;
  if (/\.eml$/i.test(file.name)) return 'message/rfc822';
  if (/\.pdf$/i.test(file.name)) return 'application/pdf';
  return null;
}

/** Uploads one file's bytes with XMLHttpRequest so the progress can be shown. */
export function uploadInboxFile(file: File, onProgress: (fraction: number) => void): Promise<UploadResult> {
  const type = inboxContentType(file);
  if (!type) return Promise.reject(new Error(i18next.t('{{name}}: only PDF, PNG, JPEG, WebP and .eml files', { name: file.name })));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/file/upload?name=${encodeURIComponent(file.name)}`);
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('content-type', type);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* plain text */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as UploadResult);
      else reject(new ApiError(xhr.status, body, 'POST', '/api/file/upload'));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.send(file);
  });
}

/** An object URL of a stored file (fetched with the session token), for previews. */
export async function fileObjectUrl(uuid: string): Promise<string> {
  return URL.createObjectURL(await fileBlob(uuid));
}

/** The raw bytes of a stored file (for the QR-bill reader). */
export async function fileBlob(uuid: string): Promise<Blob> {
  return (await fetchFile('GET', `/api/file/${uuid}/serve`)).blob();
}

export type ReceiptImportResult = ApiResult<'post', '/api/mail/import'>;
export interface ReceiptImportRowError {
  row: number;
  field: string;
  message: string;
}

/** Dext import (`POST /api/mail/import`, text/csv): all or nothing; a 400 carries `rows`. */
export const importReceipts = (csv: string, as: 'bill' | 'expense', onProgress: (fraction: number) => void) =>
  uploadText('/api/mail/import', csv, { contentType: 'text/csv', onUploadProgress: onProgress, query: { as } });
