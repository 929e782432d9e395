/**
 * Dunning (Mahnwesen, issue 15 §3, decision 030): reminder levels per instance, the dunning run
 * (which sent invoices are overdue and which level is next) and its confirmation, which records a
 * reminder per invoice and level, charges the level's fee (and optional late-payment interest) on
 * the invoice through invoicing (posted debit receivable / credit the fee account), renders the
 * letter with a QR-bill for the open amount plus fee, and e-mails it through the messaging outbox
 * or keeps it for print. Owns dunning_settings, dunning_level and dunning_reminder; every other
 * table is reached through its module's exported functions.
 */
import { randomUUID } from 'node:crypto';
import { DOCUMENT_LOCALES, formatAmountLocale, formatDate, InvoiceStatus, toFixedAmount, toMoney, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';
import { booksCurrency, chartAccountId, controlAccount, listLedgerAccounts, todayInSwitzerland } from '../accounting/accounting.service.js';
import { contactsByIds, listContacts, type Contact } from '../companies/contacts.service.js';
import {
  addInvoiceCharge,
  chargesOfInvoices,
  getInvoice,
  invoicesByUuids,
  listInvoices,
  lockInvoice,
  ownCompany,
  renderReminderLetterPdf,
  withPayments,
  type Invoice,
  type InvoiceCharge,
} from '../invoicing/invoicing.service.js';
import type { Mailer } from '../messaging/messaging.service.js';
import { DEFAULT_FEE_ACCOUNT, DEFAULT_INTEREST_ACCOUNT, DEFAULT_LEVELS, DUNNING_LANGS, fillText, type DunningLang, type DunningLevel } from './dunning.defaults.js';
import { dunningError, dunningFieldError } from './dunning.errors.js';

type Account = { id: number; number: string; name: string };

export interface DunningSettings {
  levels: DunningLevel[];
  /** False while the built-in levels apply (none stored). */
  isCustom: boolean;
  /** Credited with the fees (default 3600 of the Swiss SME chart). */
  feeAccount: Account;
  /** Credited with late-payment interest (default 6950 Finanzertrag). */
  interestAccount: Account;
  /** Yearly late-payment interest as a fraction ('0.05' = 5 %, OR art. 104), or null = none. */
  interestRate: string | null;
}

async function accountOf(tx: Tx, instanceId: string, id: number | null, fallback: { number: string; name: string }): Promise<Account> {
  const accountId = id ?? (await chartAccountId(tx, instanceId, fallback, await booksCurrency(tx, instanceId)));
  const [account] = await listLedgerAccounts(tx, instanceId, { ids: [accountId] });
  return { id: account!.id, number: account!.number, name: account!.name };
}

/** The instance's dunning settings: stored levels or the defaults, the accounts and the interest rate. */
export async function getDunningSettings(tx: Tx, instanceId: string): Promise<DunningSettings> {
  const [settings] = await tx.query<{ fee_account_id: number | null; interest_account_id: number | null; interest_rate: string | null }>(
    'SELECT fee_account_id, interest_account_id, interest_rate::text AS interest_rate FROM dunning_settings WHERE instance_id = $1',
    [instanceId],
  );
  const rows = await tx.query<{ level: number; days: number; fee: string; texts: DunningLevel['texts'] }>(
    'SELECT level, days, fee::text AS fee, texts FROM dunning_level WHERE instance_id = $1 ORDER BY level',
    [instanceId],
  );
  return {
    levels: rows.length ? rows.map((row) => ({ level: row.level, days: row.days, fee: toFixedAmount(row.fee), texts: row.texts })) : DEFAULT_LEVELS,
    isCustom: rows.length > 0,
    feeAccount: await accountOf(tx, instanceId, settings?.fee_account_id ?? null, DEFAULT_FEE_ACCOUNT),
    interestAccount: await accountOf(tx, instanceId, settings?.interest_account_id ?? null, DEFAULT_INTEREST_ACCOUNT),
    interestRate: settings?.interest_rate ? toMoney(settings.interest_rate).toFixed() : null,
  };
}

export interface DunningSettingsInput {
  levels: { days: number; fee: string; texts: DunningLevel['texts'] }[];
  feeAccountId?: number | null | undefined;
  interestAccountId?: number | null | undefined;
  interestRate?: string | null | undefined;
}

const FEE = /^\d{1,9}(\.\d{1,2})?$/;
const RATE = /^0(\.\d{1,5})?$/;

/**
 * Replaces the instance's levels and settings (one transaction). 400 `settings_invalid` naming the
 * field: `levels.N.fee` not an amount ≥ 0 with 2 decimals, `levels.N.texts.<lang>.title|body`
 * empty, `feeAccountId` / `interestAccountId` not a revenue account of the instance, `interestRate`
 * not a fraction between 0 and 1 (e.g. '0.05').
 */
export async function saveDunningSettings(tx: Tx, instanceId: string, userId: string | null, input: DunningSettingsInput): Promise<DunningSettings> {
  input.levels.forEach((level, index) => {
    if (!FEE.test(level.fee)) throw dunningFieldError('settings_invalid', `levels.${index}.fee`, 'must be an amount of 0 or more with at most 2 decimals');
    for (const lang of DUNNING_LANGS) {
      const text = level.texts[lang];
      if (!text.title.trim()) throw dunningFieldError('settings_invalid', `levels.${index}.texts.${lang}.title`, 'must not be empty');
      if (!text.body.trim()) throw dunningFieldError('settings_invalid', `levels.${index}.texts.${lang}.body`, 'must not be empty');
    }
  });
  if (input.interestRate != null && (!RATE.test(input.interestRate) || toMoney(input.interestRate).isZero())) {
    throw dunningFieldError('settings_invalid', 'interestRate', "must be a yearly rate as a fraction above 0 and below 1, e.g. '0.05' for 5 %");
  }
  const receivable = await controlAccount(tx, instanceId, 'receivable');
  for (const field of ['feeAccountId', 'interestAccountId'] as const) {
    const id = input[field];
    if (id == null) continue;
    const [account] = await listLedgerAccounts(tx, instanceId, { ids: [id] });
    // Revenue (type 4) or, for interest, any income account; never the receivable itself.
    if (!account || account.id === receivable || account.type.id === 1 || account.type.id === 2) {
      throw dunningFieldError('settings_invalid', field, account ? 'choose an income account (e.g. 3600 or 6950)' : `ledger account ${id} not found`);
    }
  }
  await tx.query(
    `INSERT INTO dunning_settings (instance_id, fee_account_id, interest_account_id, interest_rate, updated_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (instance_id) DO UPDATE SET fee_account_id = EXCLUDED.fee_account_id, interest_account_id = EXCLUDED.interest_account_id,
       interest_rate = EXCLUDED.interest_rate, updated_by = EXCLUDED.updated_by, updated_at = now()`,
    [instanceId, input.feeAccountId ?? null, input.interestAccountId ?? null, input.interestRate ?? null, userId],
  );
  await tx.query('DELETE FROM dunning_level WHERE instance_id = $1', [instanceId]);
  for (const [index, level] of input.levels.entries()) {
    const texts = Object.fromEntries(DUNNING_LANGS.map((lang) => [lang, { title: level.texts[lang].title.trim(), body: level.texts[lang].body.trim() }]));
    await tx.query('INSERT INTO dunning_level (instance_id, level, days, fee, texts) VALUES ($1, $2, $3, $4, $5)', [
      instanceId,
      index + 1,
      level.days,
      toFixedAmount(level.fee),
      JSON.stringify(texts),
    ]);
  }
  return getDunningSettings(tx, instanceId);
}

// ------------------------------------------------------------------------------------------------
// Reminders
// ------------------------------------------------------------------------------------------------

export interface Reminder {
  uuid: string;
  invoice: { uuid: string; refNumber: string; company: { uuid: string; name: string } };
  level: number;
  title: string;
  date: string;
  openBefore: string;
  fee: string;
  interest: string;
  amountDue: string;
  currency: string;
  delivery: 'email' | 'print';
  lang: DunningLang;
  messageUuids: string[];
  createdAt: string;
}

type ReminderRow = {
  uuid: string;
  invoice_uuid: string;
  level: number;
  date_reminder: string;
  open_before: string;
  fee: string;
  interest: string;
  amount_due: string;
  delivery: 'email' | 'print';
  lang: DunningLang;
  message_uuids: string[];
  created_at: string;
};
const COLUMNS = `uuid, invoice_uuid, level, date_reminder::text AS date_reminder, open_before::text AS open_before, fee::text AS fee,
  interest::text AS interest, amount_due::text AS amount_due, delivery, lang, message_uuids::text[] AS message_uuids, created_at::text AS created_at`;

async function reminderRows(tx: Tx, instanceId: string, filter: { invoiceUuids?: readonly string[]; uuid?: string }): Promise<ReminderRow[]> {
  const where = ['instance_id = $1'];
  const values: unknown[] = [instanceId];
  if (filter.invoiceUuids) {
    values.push(filter.invoiceUuids);
    where.push(`invoice_uuid = ANY($${values.length}::uuid[])`);
  }
  if (filter.uuid) {
    values.push(filter.uuid);
    where.push(`uuid = $${values.length}`);
  }
  return tx.query<ReminderRow>(`SELECT ${COLUMNS} FROM dunning_reminder WHERE ${where.join(' AND ')} ORDER BY invoice_uuid, level`, values);
}

async function toReminders(tx: Tx, instanceId: string, rows: readonly ReminderRow[]): Promise<Reminder[]> {
  if (rows.length === 0) return [];
  const settings = await getDunningSettings(tx, instanceId);
  const invoices = new Map((await invoicesByUuids(tx, instanceId, [...new Set(rows.map((row) => row.invoice_uuid))])).map((invoice) => [invoice.uuid, invoice]));
  return rows.map((row) => {
    const invoice = invoices.get(row.invoice_uuid)!;
    const level = settings.levels.find((l) => l.level === row.level);
    return {
      uuid: row.uuid,
      invoice: { uuid: invoice.uuid, refNumber: invoice.refNumber, company: invoice.company },
      level: row.level,
      title: level?.texts[row.lang].title ?? `Level ${row.level}`,
      date: row.date_reminder,
      openBefore: toFixedAmount(row.open_before),
      fee: toFixedAmount(row.fee),
      interest: toFixedAmount(row.interest),
      amountDue: toFixedAmount(row.amount_due),
      currency: invoice.currency,
      delivery: row.delivery,
      lang: row.lang,
      messageUuids: row.message_uuids,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
}

/**
 * One page of the reminders of one invoice (`invoiceUuid`) or of every invoice, by invoice and
 * level (the order of the unique key (invoice_uuid, level), so a page is one index range), read and
 * counted in SQL (db/paging.ts, decision 036): by `page` or after `cursor` (the invoice uuid and
 * level of the previous page's last reminder). `total` is counted up to COUNT_CAP (a walk's later
 * pages answer the count its cursor carries). 404 (invoicing) unknown invoice; 400 on `cursor` for
 * a cursor that is not one of this list's.
 */
export async function listReminderPage(
  tx: Tx,
  instanceId: string,
  invoiceUuid: string | undefined,
  page: PageRequest,
): Promise<{ data: Reminder[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  if (invoiceUuid) await getInvoice(tx, instanceId, invoiceUuid);
  const params: unknown[] = [instanceId, invoiceUuid ?? null];
  const where = 'instance_id = $1 AND ($2::uuid IS NULL OR invoice_uuid = $2::uuid)';
  const counted = await countUpTo(tx, `SELECT 1 FROM dunning_reminder WHERE ${where}`, params, page);
  let after = '';
  if (page.cursor) {
    const key = decodeCursor(page.cursor, ['uuid', 'int']);
    after = ` AND ${afterKey(['invoice_uuid', 'level'], ['uuid', 'int'], 'asc', key, params)}`;
  }
  const rows = await tx.query<ReminderRow>(`SELECT ${COLUMNS} FROM dunning_reminder WHERE ${where}${after} ORDER BY invoice_uuid, level ${limitOffset(page)}`, params);
  const paged = pageOf(rows, page, (row) => [row.invoice_uuid, row.level], counted);
  return { data: await toReminders(tx, instanceId, paged.rows), ...counted, nextCursor: paged.nextCursor };
}

/** The letter of a reminder as issued (PDF bytes) and a file name; 404 `reminder_not_found`. */
export async function reminderPdf(tx: Tx, instanceId: string, uuid: string): Promise<{ pdf: Buffer; filename: string }> {
  const [row] = await tx.query<{ pdf: Buffer | Uint8Array; level: number; invoice_uuid: string }>(
    'SELECT pdf, level, invoice_uuid FROM dunning_reminder WHERE instance_id = $1 AND uuid = $2',
    [instanceId, uuid],
  );
  if (!row) throw dunningError('reminder_not_found', `reminder ${uuid} not found`, { uuid: 'not found' });
  const invoice = await getInvoice(tx, instanceId, row.invoice_uuid);
  return { pdf: Buffer.from(row.pdf), filename: `${invoice.refNumber}-reminder-${row.level}.pdf` };
}

// ------------------------------------------------------------------------------------------------
// The run
// ------------------------------------------------------------------------------------------------

export interface RunCandidate {
  invoice: { uuid: string; refNumber: string; company: { uuid: string; name: string }; dateInvoice: string; dateDue: string; currency: string; total: string };
  /** Open amount now (invoice currency): what is left of the invoice plus fees and interest charged. */
  openAmount: string;
  /** What is open of the invoice itself (payments settle charges first, OR art. 85). */
  principalOpen: string;
  daysOverdue: number;
  /** Highest level reminded so far (0 = none) and its date. */
  currentLevel: number;
  lastReminderDate: string | null;
  /** The next level and the date it is due; null once the last level was sent. */
  nextLevel: number | null;
  nextLevelTitle: string | null;
  nextLevelDate: string | null;
  /** Whether the next level is due at the run's date. */
  isDue: boolean;
  fee: string;
  interest: string;
  /** Open amount + fee + interest: the reminder's QR-bill amount. */
  amountDue: string;
  /** Contacts of the customer (e-mail and language); none = print only. */
  contacts: { id: number; name: string; email: string; lang: DunningLang }[];
}

const addDays = (date: string, days: number): string => {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
};
const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const sum = (charges: readonly Pick<InvoiceCharge, 'amount'>[]): Money => charges.reduce((total, c) => total.plus(toMoney(c.amount)), toMoney(0));

/**
 * Late-payment interest (OR art. 104): principal × rate × days / 365, half-up to the cent, for the
 * days since the due date or since interest was last charged, until `date`. 0 without a rate.
 */
function interestFor(principal: Money, rate: string | null, dateDue: string, charges: readonly InvoiceCharge[], date: string): Money {
  if (rate === null || !principal.gt(0)) return toMoney(0);
  const last = charges.filter((c) => c.kind === 'interest').reduce((latest, c) => (c.date > latest ? c.date : latest), dateDue);
  const days = daysBetween(last, date);
  if (days <= 0) return toMoney(0);
  return toMoney(toFixedAmount(principal.times(toMoney(rate)).times(days).dividedBy(365)));
}

/** The candidate of one invoice at `date`, or null when it is not overdue or nothing of it is open. */
function candidateOf(
  invoice: Invoice & { openAmount: string },
  charges: readonly InvoiceCharge[],
  reminders: readonly ReminderRow[],
  settings: DunningSettings,
  contacts: readonly Contact[],
  date: string,
): RunCandidate | null {
  if (invoice.status !== InvoiceStatus.sent || date <= invoice.dateDue) return null;
  const open = toMoney(invoice.openAmount);
  const charged = sum(charges);
  // Payments settle interest and costs first (OR art. 85 al. 1): what is open of the invoice itself.
  const principal = open.minus(charged.lt(open) ? charged : open);
  if (!principal.gt(0)) return null;
  const last = reminders.reduce<ReminderRow | null>((top, r) => (top === null || r.level > top.level ? r : top), null);
  const currentLevel = last?.level ?? 0;
  const next = settings.levels.find((l) => l.level === currentLevel + 1) ?? null;
  const nextLevelDate = next ? addDays(last ? last.date_reminder : invoice.dateDue, next.days) : null;
  const fee = next && invoice.currency === invoice.baseCurrency ? toMoney(next.fee) : toMoney(0);
  const interest = next && invoice.currency === invoice.baseCurrency ? interestFor(principal, settings.interestRate, invoice.dateDue, charges, date) : toMoney(0);
  return {
    invoice: {
      uuid: invoice.uuid,
      refNumber: invoice.refNumber,
      company: invoice.company,
      dateInvoice: invoice.dateInvoice,
      dateDue: invoice.dateDue,
      currency: invoice.currency,
      total: invoice.totals.total,
    },
    openAmount: toFixedAmount(open),
    principalOpen: toFixedAmount(principal),
    daysOverdue: daysBetween(invoice.dateDue, date),
    currentLevel,
    lastReminderDate: last?.date_reminder ?? null,
    nextLevel: next?.level ?? null,
    nextLevelTitle: next?.texts.de.title ?? null,
    nextLevelDate,
    isDue: nextLevelDate !== null && nextLevelDate <= date,
    fee: toFixedAmount(fee),
    interest: toFixedAmount(interest),
    amountDue: toFixedAmount(open.plus(fee).plus(interest)),
    contacts: contacts.filter((c) => c.email).map((c) => ({ id: c.id, name: c.name, email: c.email, lang: c.lang as DunningLang })),
  };
}

/**
 * The dunning run at `date` (default today, Switzerland): every sent invoice overdue at that date
 * with something of the invoice itself open (after part payments and credit notes), oldest due
 * date first, with its current and next level, the next level's date, fee and interest. A paid or
 * fully credited invoice is not listed.
 */
export async function previewRun(tx: Tx, instanceId: string, date?: string | null): Promise<RunCandidate[]> {
  const at = date ?? todayInSwitzerland();
  const settings = await getDunningSettings(tx, instanceId);
  const sent = (await listInvoices(tx, instanceId, { status: InvoiceStatus.sent })).data.filter((invoice) => invoice.dateDue < at);
  const invoices = await withPayments(tx, instanceId, sent);
  const uuids = invoices.map((invoice) => invoice.uuid);
  const charges = await chargesOfInvoices(tx, instanceId, uuids);
  const reminders = await reminderRows(tx, instanceId, { invoiceUuids: uuids });
  const contacts = new Map<string, Contact[]>();
  const out: RunCandidate[] = [];
  for (const invoice of invoices) {
    if (!contacts.has(invoice.company.uuid)) contacts.set(invoice.company.uuid, await listContacts(tx, instanceId, invoice.company.uuid));
    const candidate = candidateOf(
      invoice,
      charges.get(invoice.uuid) ?? [],
      reminders.filter((r) => r.invoice_uuid === invoice.uuid),
      settings,
      contacts.get(invoice.company.uuid)!,
      at,
    );
    if (candidate) out.push(candidate);
  }
  return out.sort((a, b) => a.invoice.dateDue.localeCompare(b.invoice.dateDue) || a.invoice.refNumber.localeCompare(b.invoice.refNumber));
}

export interface RunItem {
  invoiceUuid: string;
  /** The level to send: must be the invoice's next level, due at the date. */
  level: number;
  /** E-mail to the customer's contacts, or keep the letter for print. */
  delivery: 'email' | 'print';
  /** Contacts to e-mail (default: all of the customer's contacts). */
  contactIds?: readonly number[] | null | undefined;
  /** Letter language (default: the first contact's, else de). */
  lang?: DunningLang | null | undefined;
}

const ROW_LABELS: Record<DunningLang, Record<'total' | 'settled' | 'earlier' | 'fee' | 'interest', string>> = {
  de: { total: 'Rechnungsbetrag', settled: 'Bezahlt / gutgeschrieben', earlier: 'Bisherige Gebühren und Zinsen', fee: 'Mahngebühr', interest: 'Verzugszins' },
  fr: { total: 'Montant de la facture', settled: 'Payé / crédité', earlier: 'Frais et intérêts antérieurs', fee: 'Frais de rappel', interest: 'Intérêts moratoires' },
  it: { total: 'Importo della fattura', settled: 'Pagato / accreditato', earlier: 'Tasse e interessi precedenti', fee: 'Tassa di sollecito', interest: 'Interessi di mora' },
  en: { total: 'Invoice amount', settled: 'Paid / credited', earlier: 'Earlier fees and interest', fee: 'Dunning fee', interest: 'Late-payment interest' },
};

/**
 * Confirms a dunning run (one transaction: all items or nothing). Per item, invoices locked in uuid
 * order (no deadlock between parallel runs): a reminder of the same invoice and level that exists
 * already is answered as it is (`repeated`), so parallel identical confirmations create each
 * reminder once; otherwise the level must be the next one and due (409 `level_not_due`
 * `items.N.level`), the invoice sent with something of it open (409 `invoice_not_open`
 * `items.N.invoiceUuid`). Then: the fee and interest are charged on the invoice (posted debit 1100 /
 * credit the fee or interest account), the letter rendered with its QR-bill for open + fee +
 * interest, and e-mailed to the contacts through the outbox (400 `items.N.contactIds` when there is
 * none, or one of another customer) or kept for print.
 */
export async function confirmRun(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  input: { date?: string | null | undefined; items: readonly RunItem[] },
  deps: { mailer: Mailer },
): Promise<{ reminders: (Reminder & { repeated: boolean })[] }> {
  const date = input.date ?? todayInSwitzerland();
  const seen = new Map<string, number>();
  input.items.forEach((item, index) => {
    if (seen.has(item.invoiceUuid)) throw dunningFieldError('run_invalid', `items.${index}.invoiceUuid`, 'the invoice is given twice');
    seen.set(item.invoiceUuid, index);
  });
  const settings = await getDunningSettings(tx, instanceId);
  const creditor = await ownCompany(tx, instanceId);
  // The letter needs the creditor (onboarding's own company); without it nothing is booked.
  if (!creditor) throw dunningError('own_company_missing', 'own company not found: the letter needs the creditor');
  const order = [...input.items.entries()].sort((a, b) => a[1].invoiceUuid.localeCompare(b[1].invoiceUuid));
  const results = new Map<number, { uuid: string; repeated: boolean }>();
  for (const [index, item] of order) {
    const at = `items.${index}`;
    await lockInvoice(tx, instanceId, item.invoiceUuid);
    const existing = await reminderRows(tx, instanceId, { invoiceUuids: [item.invoiceUuid] });
    const done = existing.find((r) => r.level === item.level);
    if (done) {
      results.set(index, { uuid: done.uuid, repeated: true });
      continue;
    }
    const [invoice] = await withPayments(tx, instanceId, [await getInvoice(tx, instanceId, item.invoiceUuid)]);
    const charges = (await chargesOfInvoices(tx, instanceId, [invoice!.uuid])).get(invoice!.uuid) ?? [];
    const customerContacts = await listContacts(tx, instanceId, invoice!.company.uuid);
    const candidate = candidateOf(invoice!, charges, existing, settings, customerContacts, date);
    if (!candidate) {
      throw dunningFieldError('invoice_not_open', `${at}.invoiceUuid`, `invoice ${invoice!.refNumber} is not overdue with an open amount at ${date}: nothing to remind`);
    }
    if (candidate.nextLevel !== item.level || !candidate.isDue) {
      const why =
        candidate.nextLevel === null
          ? `the last level (${candidate.currentLevel}) was sent already`
          : candidate.nextLevel !== item.level
            ? `the next level is ${candidate.nextLevel}`
            : `level ${item.level} is due on ${candidate.nextLevelDate}`;
      throw dunningFieldError('level_not_due', `${at}.level`, `invoice ${invoice!.refNumber}: ${why}`);
    }
    let contacts: Contact[] = [];
    if (item.delivery === 'email') {
      contacts = item.contactIds?.length ? await contactsByIds(tx, item.contactIds, `${at}.contactIds`) : customerContacts.filter((c) => c.email);
      const foreign = contacts.find((c) => c.company.uuid !== invoice!.company.uuid);
      if (foreign) throw dunningFieldError('run_invalid', `${at}.contactIds`, `${foreign.name} is not a contact of the invoice's customer`);
      if (contacts.length === 0) throw dunningFieldError('run_invalid', `${at}.contactIds`, `${invoice!.company.name} has no contact with an e-mail address: print the letter instead`);
    }
    const lang: DunningLang = item.lang ?? (contacts[0]?.lang as DunningLang | undefined) ?? (customerContacts[0]?.lang as DunningLang | undefined) ?? 'de';
    const level = settings.levels.find((l) => l.level === item.level)!;
    const text = level.texts[lang];
    const uuid = randomUUID();
    const fee = toMoney(candidate.fee);
    const interest = toMoney(candidate.interest);
    if (fee.gt(0)) {
      await addInvoiceCharge(tx, instanceId, userId, {
        invoiceUuid: invoice!.uuid,
        kind: 'dunning_fee',
        date,
        amount: candidate.fee,
        accountId: settings.feeAccount.id,
        description: `${text.title}: fee`,
        sourceRef: uuid,
      });
    }
    if (interest.gt(0)) {
      await addInvoiceCharge(tx, instanceId, userId, {
        invoiceUuid: invoice!.uuid,
        kind: 'interest',
        date,
        amount: candidate.interest,
        accountId: settings.interestAccount.id,
        description: `${text.title}: late-payment interest`,
        sourceRef: uuid,
      });
    }
    const money = (value: string | Money) => `${invoice!.currency} ${formatAmountLocale(typeof value === 'string' ? value : toFixedAmount(value), DOCUMENT_LOCALES[lang])}`;
    const payBy = addDays(date, 10);
    const sender = creditor.name;
    const values = {
      refNumber: invoice!.refNumber,
      dateInvoice: formatDate(invoice!.dateInvoice),
      dateDue: formatDate(invoice!.dateDue),
      customer: invoice!.company.name,
      total: money(invoice!.totals.total),
      open: money(candidate.openAmount),
      fee: money(candidate.fee),
      amountDue: money(candidate.amountDue),
      payBy: formatDate(payBy),
      sender,
    };
    const labels = ROW_LABELS[lang];
    const earlier = sum(charges);
    const settled = toMoney(invoice!.totals.total).plus(earlier).minus(toMoney(candidate.openAmount));
    const rows = [
      { label: labels.total, amount: invoice!.totals.total },
      ...(settled.gt(0) ? [{ label: labels.settled, amount: toFixedAmount(settled.negated()) }] : []),
      ...(earlier.gt(0) ? [{ label: labels.earlier, amount: toFixedAmount(earlier) }] : []),
      ...(fee.gt(0) ? [{ label: labels.fee, amount: candidate.fee }] : []),
      ...(interest.gt(0) ? [{ label: `${labels.interest} ${toMoney(settings.interestRate ?? '0').times(100).toFixed()} %`, amount: candidate.interest }] : []),
    ];
    const pdf = await renderReminderLetterPdf(await getInvoice(tx, instanceId, invoice!.uuid), creditor, lang, {
      date,
      title: `${text.title} – ${invoice!.refNumber}`,
      body: fillText(text.body, values),
      rows,
      amountDue: candidate.amountDue,
    });
    const messageUuids: string[] = [];
    for (const contact of contacts) {
      const message = await deps.mailer.queue(tx, instanceId, userId, {
        kind: 'invoice',
        documentRef: invoice!.uuid,
        to: [contact.email],
        subject: `${text.title}: ${invoice!.refNumber} – ${sender}`.slice(0, 300),
        body: fillText(text.body, values),
        attachments: [{ filename: `${invoice!.refNumber}-${item.level}.pdf`, contentType: 'application/pdf', content: pdf }],
      });
      messageUuids.push(message.uuid);
    }
    // The unique (instance, invoice, level) key backs the row lock: a second insert would fail, never book twice.
    await tx.query(
      `INSERT INTO dunning_reminder (instance_id, uuid, invoice_uuid, level, date_reminder, open_before, fee, interest, amount_due, delivery, lang, message_uuids, pdf, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::uuid[], $13, $14)`,
      [
        instanceId,
        uuid,
        invoice!.uuid,
        item.level,
        date,
        candidate.openAmount,
        candidate.fee,
        candidate.interest,
        candidate.amountDue,
        item.delivery,
        lang,
        messageUuids,
        pdf,
        userId,
      ],
    );
    results.set(index, { uuid, repeated: false });
  }
  const out: (Reminder & { repeated: boolean })[] = [];
  for (const [index] of input.items.entries()) {
    const result = results.get(index)!;
    const [reminder] = await toReminders(tx, instanceId, await reminderRows(tx, instanceId, { uuid: result.uuid }));
    out.push({ ...reminder!, repeated: result.repeated });
  }
  return { reminders: out };
}
