/**
 * Recurring invoices (issue 15 §4, decision 031): a template with an invoice's head and lines, an
 * interval (monthly, quarterly, yearly), start, optional end and next date, and whether each invoice
 * is sent (posted and e-mailed to chosen contacts through invoicing's `emailInvoice`, the
 * /api/invoice/email path) or left pending. The job runner creates the invoice of each period once:
 * - one pg-boss job per template waits for its next date (queue 'recurring-invoice', singleton key
 *   per template); the handler catches up every period due up to today, one transaction each;
 * - once, even with several app servers: each period takes its row of `recurring_invoice_run`
 *   (unique per template and period date) under the template's row lock, and next_date moves on
 *   with an update conditional on the period index it read.
 * Invoices are created by invoicing's `insertInvoice`; this module never reads invoicing's tables.
 */
import { Currency, addDays, currencyCodeById, invoiceTotals, normalizeVatRate, type CurrencyCode, type InvoiceTotals } from '@bilan/domain';
import type { Database, Tx } from '../../db/database.js';
import { afterKey, countUpTo, decodeCursor, limitOffset, pageOf, type PageRequest } from '../../db/paging.js';
import { AppError, fieldError, moduleErrors } from '../../http/errors.js';
import { listLedgerAccounts, todayInSwitzerland } from '../accounting/accounting.service.js';
import { addressesById, companyHeadsByUuid } from '../companies/companies.service.js';
import { contactsByIds } from '../companies/contacts.service.js';
import { checkInvoiceData, documentLine, emailInvoice, insertInvoice, invoicesByUuids, trimZeros, type InvoiceData, type ItemData } from '../invoicing/invoicing.service.js';
import type { JobRunner } from '../jobs/job-runner.js';
import type { Mailer } from '../messaging/messaging.service.js';

export const RECURRING_QUEUE = 'recurring-invoice';
export const INTERVALS = ['monthly', 'quarterly', 'yearly'] as const;
export type Interval = (typeof INTERVALS)[number];
const MONTHS: Record<Interval, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export const recurringError = moduleErrors({
  recurring_not_found: 'not_found',
  recurring_invalid: 'validation', // interval, dates or contacts of a template
});

/**
 * The date of period `index` (from 0): `start` + index intervals, the day clamped to the month's
 * last (31 Jan monthly → 28/29 Feb → 31 Mar): counted from the start each time, so no day drifts.
 */
export function periodDate(start: string, interval: Interval, index: number): string {
  const [year, month, day] = start.split('-').map(Number) as [number, number, number];
  const total = month - 1 + index * MONTHS[interval];
  const y = year + Math.floor(total / 12);
  const m = total % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(Math.min(day, last)).padStart(2, '0')}`;
}

/** A template as the form sends it: the invoice's head and lines (no dates) and the schedule. */
export interface RecurringData extends Omit<InvoiceData, 'dateInvoice' | 'dateDue'> {
  interval: Interval;
  startDate: string;
  endDate?: string | null | undefined;
  /** Days from each invoice's date to its due date (default 30). */
  paymentTermDays?: number | undefined;
  /** 'send': post and e-mail each invoice to `contactIds`; 'draft': leave it pending. */
  sendMode: 'draft' | 'send';
  contactIds?: readonly number[] | undefined;
  active?: boolean | undefined;
}

export interface RecurringTemplate {
  uuid: string;
  id: number;
  company: { uuid: string; name: string };
  address: { id: number; street: string; houseNumber: string | null; zip: string; city: string; country: { id: number } };
  paymentProfile: { id: number };
  vat: string;
  currency: CurrencyCode;
  fxRate: string;
  description: string;
  paymentTermDays: number;
  interval: Interval;
  startDate: string;
  endDate: string | null;
  nextDate: string;
  /** Whether another invoice is still to come (active and the next date not after the end). */
  isRunning: boolean;
  sendMode: 'draft' | 'send';
  contactIds: number[];
  active: boolean;
  items: { id: number; name: string; amount: string; price: string; discount: string | null; discountAbs: string | null; vat: string | null; account: { id: number; number: string; name: string } | null; total: string }[];
  totals: InvoiceTotals;
  /** The invoices created, newest first, with their period; `error` when sending was refused (the invoice stays pending). */
  runs: { periodDate: string; invoice: { uuid: string; refNumber: string; status: number } | null; sent: boolean; error: string | null }[];
}

type TemplateRow = {
  uuid: string;
  id: number;
  company_uuid: string;
  address_id: number;
  payment_profile_id: number;
  vat_rate: string;
  currency_id: number;
  fx_rate: string;
  description: string;
  payment_term_days: number;
  interval: Interval;
  start_date: string;
  end_date: string | null;
  next_index: number;
  next_date: string;
  send_mode: 'draft' | 'send';
  contact_ids: number[];
  active: boolean;
};
type ItemRow = { id: number; recurring_id: number; label: string; quantity: string; price: string; discount: string | null; discount_abs: string | null; vat_rate: string | null; account_id: number | null };
type RunRow = { recurring_id: number; period_date: string; invoice_uuid: string | null; sent: boolean; error: string | null };

const TEMPLATE_SELECT = `SELECT uuid, id, company_uuid, address_id, payment_profile_id, vat_rate::text AS vat_rate, currency_id, fx_rate::text AS fx_rate,
       description, payment_term_days, interval, start_date::text AS start_date, end_date::text AS end_date, next_index,
       next_date::text AS next_date, send_mode, contact_ids, active FROM recurring_invoice`;

async function templateRows(tx: Tx, instanceId: string, key?: string | number, lock = false): Promise<TemplateRow[]> {
  const where = key === undefined ? '' : typeof key === 'number' ? ' AND id = $2' : ' AND uuid = $2';
  return tx.query<TemplateRow>(`${TEMPLATE_SELECT} WHERE instance_id = $1${where} ORDER BY id DESC${lock ? ' FOR UPDATE' : ''}`, key === undefined ? [instanceId] : [instanceId, key]);
}

async function toTemplates(tx: Tx, instanceId: string, rows: readonly TemplateRow[]): Promise<RecurringTemplate[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const items = await tx.query<ItemRow>(
    `SELECT id, recurring_id, label, quantity::text AS quantity, price::text AS price, discount::text AS discount, discount_abs::text AS discount_abs,
            vat_rate::text AS vat_rate, account_id FROM recurring_invoice_item WHERE instance_id = $1 AND recurring_id = ANY($2::int[]) ORDER BY position, id`,
    [instanceId, ids],
  );
  const runs = await tx.query<RunRow>(
    `SELECT recurring_id, period_date::text AS period_date, invoice_uuid, sent, error FROM recurring_invoice_run
      WHERE instance_id = $1 AND recurring_id = ANY($2::int[]) ORDER BY period_date DESC`,
    [instanceId, ids],
  );
  const companies = await companyHeadsByUuid(tx, instanceId, rows.map((r) => r.company_uuid));
  const addresses = await addressesById(tx, instanceId, rows.map((r) => r.address_id));
  const accountIds = [...new Set(items.flatMap((i) => (i.account_id === null ? [] : [i.account_id])))];
  const accounts = new Map((accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : []).map((a) => [a.id, a]));
  const invoices = new Map((await invoicesByUuids(tx, instanceId, runs.flatMap((r) => (r.invoice_uuid ? [r.invoice_uuid] : [])))).map((i) => [i.uuid, i]));
  return rows.map((row) => {
    const currency = currencyCodeById(row.currency_id) ?? 'CHF';
    const lines = items
      .filter((i) => i.recurring_id === row.id)
      .map((i) => documentLine(i, i.account_id === null ? undefined : accounts.get(i.account_id)));
    const address = addresses.get(row.address_id)!;
    return {
      uuid: row.uuid,
      id: row.id,
      company: { uuid: row.company_uuid, name: companies.get(row.company_uuid)?.name ?? '' },
      address: { id: address.id, street: address.street, houseNumber: address.houseNumber, zip: address.zip, city: address.city, country: { id: address.country.id } },
      paymentProfile: { id: row.payment_profile_id },
      vat: normalizeVatRate(row.vat_rate),
      currency,
      fxRate: trimZeros(row.fx_rate),
      description: row.description,
      paymentTermDays: row.payment_term_days,
      interval: row.interval,
      startDate: row.start_date,
      endDate: row.end_date,
      nextDate: row.next_date,
      isRunning: row.active && (row.end_date === null || row.next_date <= row.end_date),
      sendMode: row.send_mode,
      contactIds: row.contact_ids,
      active: row.active,
      items: lines,
      totals: invoiceTotals(lines.map((l) => ({ quantity: l.amount, price: l.price, discount: l.discount, discountAbs: l.discountAbs, vatRate: l.vat })), row.vat_rate, currency, row.next_date),
      runs: runs
        .filter((r) => r.recurring_id === row.id)
        .map((r) => {
          const invoice = r.invoice_uuid ? invoices.get(r.invoice_uuid) : undefined;
          return { periodDate: r.period_date, invoice: invoice ? { uuid: invoice.uuid, refNumber: invoice.refNumber, status: invoice.status } : null, sent: r.sent, error: r.error };
        }),
    };
  });
}

/**
 * One page of the instance's templates, newest first (by id, descending), with their lines, totals
 * and runs, read and counted in SQL (db/paging.ts, decision 036): by `page` or after `cursor` (the
 * id of the previous page's last template). `total` is counted up to COUNT_CAP (a walk's later
 * pages answer the count its cursor carries). 400 on `cursor` for a cursor that is not one of this
 * list's.
 */
export async function listRecurringPage(
  tx: Tx,
  instanceId: string,
  page: PageRequest,
): Promise<{ data: RecurringTemplate[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId];
  const counted = await countUpTo(tx, 'SELECT 1 FROM recurring_invoice WHERE instance_id = $1', params, page);
  const after = page.cursor ? ` AND ${afterKey(['id'], ['int'], 'desc', decodeCursor(page.cursor, ['int']), params)}` : '';
  const rows = await tx.query<TemplateRow>(`${TEMPLATE_SELECT} WHERE instance_id = $1${after} ORDER BY id DESC ${limitOffset(page)}`, params);
  const paged = pageOf(rows, page, (row) => [row.id], counted);
  return { data: await toTemplates(tx, instanceId, paged.rows), ...counted, nextCursor: paged.nextCursor };
}

/** One template by uuid; 404 unknown. */
export async function getRecurring(tx: Tx, instanceId: string, uuid: string): Promise<RecurringTemplate> {
  const rows = await templateRows(tx, instanceId, uuid);
  if (!rows[0]) throw recurringError('recurring_not_found', `recurring invoice ${uuid} not found`, { uuid: 'not found' });
  return (await toTemplates(tx, instanceId, rows))[0]!;
}

/** The template and period that created `invoiceUuid` (the invoice's link back), or null. */
export async function recurringOfInvoice(tx: Tx, instanceId: string, invoiceUuid: string): Promise<{ uuid: string; periodDate: string } | null> {
  const [row] = await tx.query<{ uuid: string; period_date: string }>(
    `SELECT t.uuid, r.period_date::text AS period_date FROM recurring_invoice_run r JOIN recurring_invoice t ON t.instance_id = r.instance_id AND t.id = r.recurring_id
      WHERE r.instance_id = $1 AND r.invoice_uuid = $2`,
    [instanceId, invoiceUuid],
  );
  return row ? { uuid: row.uuid, periodDate: row.period_date } : null;
}

/**
 * Checks a template: the invoice's rules for its head and lines (invoicing's `checkInvoiceData`,
 * as an invoice dated the start date), the end not before the start, and for 'send' at least one
 * contact, each of the customer (400 `contactIds`). Answers the columns to store.
 */
async function checked(tx: Tx, instanceId: string, data: RecurringData) {
  const term = data.paymentTermDays ?? 30;
  const { interval: _i, startDate: _s, endDate: _e, paymentTermDays: _p, sendMode: _m, contactIds: _c, active: _a, ...head } = data;
  const invoice = await checkInvoiceData(tx, instanceId, { ...head, dateInvoice: data.startDate, dateDue: addDays(data.startDate, term) });
  if (data.endDate && data.endDate < data.startDate) throw fieldError('endDate', 'the end date cannot be before the start date');
  const contactIds = [...new Set(data.contactIds ?? [])];
  if (data.sendMode === 'send') {
    if (contactIds.length === 0) throw fieldError('contactIds', 'choose at least one contact to e-mail the invoices to');
    const contacts = await contactsByIds(tx, contactIds);
    const foreign = contacts.find((c) => c.company.uuid !== data.company.uuid);
    if (foreign) throw fieldError('contactIds', `${foreign.name} is not a contact of the customer`);
  }
  return { ...invoice, term, contactIds };
}

async function writeItems(tx: Tx, instanceId: string, id: number, items: readonly ItemData[]): Promise<void> {
  await tx.query('DELETE FROM recurring_invoice_item WHERE instance_id = $1 AND recurring_id = $2', [instanceId, id]);
  for (const [position, item] of items.entries()) {
    await tx.query(
      `INSERT INTO recurring_invoice_item (instance_id, recurring_id, position, label, quantity, price, discount, discount_abs, vat_rate, account_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [instanceId, id, position, item.name.trim(), item.amount, item.price, item.discount || null, item.discountAbs || null, item.vat ?? null, item.account?.id ?? null],
    );
  }
}

export class RecurringInvoices {
  /**
   * Registers the queue's handler on `jobs`. `now` is the clock (default the system's); the books'
   * calendar is its date in Switzerland. Tests give their own clock.
   */
  constructor(
    private readonly db: Database,
    private readonly jobs: JobRunner,
    private readonly deps: { mailer: Mailer; publicUrl: string; now?: () => Date },
  ) {
    jobs.register<{ instanceId: string; id: number }>(RECURRING_QUEUE, async (job) => {
      await this.run(job.data.instanceId, job.data.id);
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Today in Switzerland by this service's clock. */
  private today(): string {
    if (!this.deps.now) return todayInSwitzerland();
    return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit' }).format(this.now());
  }

  /**
   * The template's job for its next date (shortly after midnight in Switzerland), in `tx`; at most
   * one waits per template (singleton key), an earlier one that runs finds nothing due and schedules again.
   */
  private async schedule(tx: Tx | null, instanceId: string, id: number, nextDate: string): Promise<void> {
    const due = Date.parse(`${nextDate}T00:05:00+01:00`);
    const seconds = Math.max(0, Math.ceil((due - this.now().getTime()) / 1000));
    await this.jobs.enqueue(tx, RECURRING_QUEUE, { instanceId, id }, { startAfterSeconds: seconds, singletonKey: `${instanceId}:${id}` });
  }

  /** Creates a template with its first job (400 as `checked`). The next date is the start date. */
  async create(tx: Tx, instanceId: string, userId: string | null, data: RecurringData): Promise<RecurringTemplate> {
    const c = await checked(tx, instanceId, data);
    const [row] = await tx.query<{ id: number; uuid: string }>(
      `INSERT INTO recurring_invoice (instance_id, id, company_uuid, address_id, payment_profile_id, vat_rate, currency_id, fx_rate, description,
                                      payment_term_days, interval, start_date, end_date, next_index, next_date, send_mode, contact_ids, active, created_by)
       VALUES ($1, next_ids($1, 'recurring_invoice'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $11, $13, $14, $15, $16) RETURNING id, uuid`,
      [instanceId, data.company.uuid, data.address.id, data.paymentProfile.id, c.vat, Currency[c.currency], c.fxRate, data.description?.trim() ?? '', c.term,
        data.interval, data.startDate, data.endDate ?? null, data.sendMode, c.contactIds, data.active ?? true, userId],
    );
    await writeItems(tx, instanceId, row!.id, data.items ?? []);
    await this.schedule(tx, instanceId, row!.id, data.startDate);
    return getRecurring(tx, instanceId, row!.uuid);
  }

  /**
   * Replaces a template's head, lines and schedule. A new start date or interval restarts the count
   * from the first period after the ones already created; periods created stay created (their runs).
   */
  async update(tx: Tx, instanceId: string, uuid: string, data: RecurringData): Promise<RecurringTemplate> {
    const [row] = await templateRows(tx, instanceId, uuid, true);
    if (!row) throw recurringError('recurring_not_found', `recurring invoice ${uuid} not found`, { uuid: 'not found' });
    const c = await checked(tx, instanceId, data);
    // The next period after the last one created under the new schedule.
    const [last] = await tx.query<{ d: string | null }>('SELECT max(period_date)::text AS d FROM recurring_invoice_run WHERE instance_id = $1 AND recurring_id = $2', [instanceId, row.id]);
    let index = 0;
    while (last?.d && periodDate(data.startDate, data.interval, index) <= last.d) index += 1;
    const next = periodDate(data.startDate, data.interval, index);
    await tx.query(
      `UPDATE recurring_invoice SET company_uuid = $3, address_id = $4, payment_profile_id = $5, vat_rate = $6, currency_id = $7, fx_rate = $8,
              description = $9, payment_term_days = $10, interval = $11, start_date = $12, end_date = $13, next_index = $14, next_date = $15,
              send_mode = $16, contact_ids = $17, active = $18
        WHERE instance_id = $1 AND id = $2`,
      [instanceId, row.id, data.company.uuid, data.address.id, data.paymentProfile.id, c.vat, Currency[c.currency], c.fxRate, data.description?.trim() ?? '',
        c.term, data.interval, data.startDate, data.endDate ?? null, index, next, data.sendMode, c.contactIds, data.active ?? true],
    );
    await writeItems(tx, instanceId, row.id, data.items ?? []);
    await this.schedule(tx, instanceId, row.id, next);
    return getRecurring(tx, instanceId, uuid);
  }

  /** Deletes a template; the invoices it created stay. */
  async remove(tx: Tx, instanceId: string, uuid: string): Promise<void> {
    const rows = await tx.query('DELETE FROM recurring_invoice WHERE instance_id = $1 AND uuid = $2 RETURNING id', [instanceId, uuid]);
    if (rows.length === 0) throw recurringError('recurring_not_found', `recurring invoice ${uuid} not found`, { uuid: 'not found' });
  }

  /**
   * Creates the invoices of every period of template `id` due up to today (catching up after
   * downtime), each period in its own transaction, then schedules the job of the next period.
   * Safe to run twice or on two servers at once: see the module comment. Returns the periods created.
   */
  async run(instanceId: string, id: number): Promise<string[]> {
    const created: string[] = [];
    for (;;) {
      let outcome: { period: string | null; isNew?: boolean; next: TemplateRow | null };
      try {
        outcome = await this.db.withInstance(instanceId, (tx) => this.runPeriod(tx, instanceId, id, 'as-template'));
      } catch (error) {
        // Sending refused (a lock date, a contact gone…): the period's invoice is created pending,
        // and the refusal kept on its run; anything else fails the job, which the queue retries.
        if (!(error instanceof AppError)) throw error;
        outcome = await this.db.withInstance(instanceId, (tx) => this.runPeriod(tx, instanceId, id, 'draft', error.message));
      }
      if (outcome.period && outcome.isNew) created.push(outcome.period);
      if (!outcome.period) {
        const next = outcome.next;
        if (next && next.active && (next.end_date === null || next.next_date <= next.end_date)) await this.schedule(null, instanceId, id, next.next_date);
        return created;
      }
    }
  }

  /** One period: lock the template; if its next date is due, take the period's run row, create (and send) the invoice, move on. */
  private async runPeriod(tx: Tx, instanceId: string, id: number, mode: 'as-template' | 'draft', sendError?: string): Promise<{ period: string | null; isNew?: boolean; next: TemplateRow | null }> {
    const [row] = await templateRows(tx, instanceId, id, true);
    if (!row) return { period: null, next: null };
    const isDue = row.active && row.next_date <= this.today() && (row.end_date === null || row.next_date <= row.end_date);
    if (!isDue) return { period: null, next: row };
    const period = row.next_date;
    const taken = await tx.query(
      `INSERT INTO recurring_invoice_run (instance_id, recurring_id, period_date, error) VALUES ($1, $2, $3, $4)
       ON CONFLICT (instance_id, recurring_id, period_date) DO NOTHING RETURNING period_date`,
      [instanceId, id, period, sendError ?? null],
    );
    if (taken.length === 1) {
      const [template] = await toTemplates(tx, instanceId, [row]);
      const invoice = await insertInvoice(tx, instanceId, null, {
        company: { uuid: row.company_uuid },
        address: { id: row.address_id },
        paymentProfile: { id: row.payment_profile_id },
        vat: row.vat_rate,
        currency: template!.currency === 'EUR' ? 'EUR' : 'CHF',
        fxRate: row.fx_rate,
        dateInvoice: period,
        dateDue: addDays(period, row.payment_term_days),
        description: row.description,
        items: template!.items.map((i) => ({ name: i.name, amount: i.amount, price: i.price, discount: i.discount, discountAbs: i.discountAbs, vat: i.vat, account: i.account ? { id: i.account.id } : null })),
      });
      const send = mode === 'as-template' && row.send_mode === 'send';
      if (send) await emailInvoice(tx, instanceId, null, { uuid: invoice.uuid, contactIds: row.contact_ids }, { mailer: this.deps.mailer, publicUrl: this.deps.publicUrl });
      await tx.query('UPDATE recurring_invoice_run SET invoice_uuid = $4, sent = $5 WHERE instance_id = $1 AND recurring_id = $2 AND period_date = $3', [instanceId, id, period, invoice.uuid, send]);
    }
    const nextDate = periodDate(row.start_date, row.interval, row.next_index + 1);
    await tx.query('UPDATE recurring_invoice SET next_index = next_index + 1, next_date = $4 WHERE instance_id = $1 AND id = $2 AND next_index = $3', [instanceId, id, row.next_index, nextDate]);
    return { period, isNew: taken.length === 1, next: null };
  }
}

