/**
 * The list benchmark's data (issue 18 §2), bulk-loaded as the owner with set-based SQL into one
 * onboarded workplace, so that every row satisfies the schema as the app would have written it:
 * - companies, each with one address; every second one with a supplier payment profile (IBAN);
 * - invoices over the companies with 1–3 items each: 70 % paid, 20 % sent, 10 % pending. A sent or
 *   paid invoice has its sent posting (debit 1100, credit 3200, source 'invoice', source_ref = the
 *   invoice's uuid), a paid one also its payment (invoice_payment row and entry: debit 1020, credit
 *   1100) — the tables invoice/list-w-amounts and company/list with openAmounts read;
 * - bills (payables) over the companies: 20 % pending, 15 % approved, 60 % paid, 5 % cancelled;
 * - plain two-line journal entries ('import') over 40 accounts of the chart, including the bank
 *   account 1020, to bring the journal to `entries` entries in all.
 * Document postings are written with `bilan.document_posting = on` (what the app's own posting
 * code does in one statement); the balance check at commit, the lock-date check, the
 * account_period_balance triggers and the search-word triggers (migration 0044) run as for any write.
 */
import { listInvoices } from '../../apps/server/src/modules/invoicing/documents.service.js';
import { pickAccounts } from '../ledger/data.js';
import { log, round, timed } from '../ledger/measure.js';
import { reserveIds, type BenchEnv, type Workplace } from '../ledger/setup.js';

export interface Sizes {
  entries: number;
  invoices: number;
  bills: number;
  companies: number;
}

export interface LoadReport {
  sizes: Sizes & { journalLines: number; invoiceItems: number; invoicePayments: number; documentEntries: number; plainEntries: number };
  /** Wall time of each step in milliseconds. */
  steps: Record<string, number>;
  totalSeconds: number;
  /** Rows and megabytes (with indexes) of the tables after the load. */
  tables: { table: string; rows: number; mb: number }[];
}

const FROM = '2020-01-01';
const TO = '2025-12-31';
const INVOICES_FROM = '2024-01-01';
const CHUNK = 100_000;

const CITIES = `(ARRAY['Zürich','Bern','Basel','Luzern','St. Gallen','Winterthur','Lausanne','Genève','Lugano','Chur'])`;
const TRADES = `(ARRAY['Treuhand','Bau','Garage','Informatik','Architektur','Gastro','Druckerei','Elektro','Sanitär','Transport'])`;
const WORDS = `(ARRAY['Beratung','Wartung','Reparatur','Software','Lizenz','Miete','Strom','Reinigung','Transport','Druck'])`;

/** Loads everything; returns the step times. `accounts` is the workplace's chart (number → id). */
export async function loadData(env: BenchEnv, workplace: Workplace, sizes: Sizes): Promise<LoadReport> {
  const { instanceId: id, accounts, currencyId } = workplace;
  const account = (number: string) => {
    const found = accounts.get(number);
    if (found === undefined) throw new Error(`the chart has no account ${number}`);
    return found;
  };
  const steps: Record<string, number> = {};
  const step = async (name: string, fn: () => Promise<unknown>) => {
    const { ms } = await timed(fn);
    steps[name] = round(ms, 0);
    log(`load: ${name} in ${(ms / 1000).toFixed(1)} s`);
  };
  const started = Date.now();

  const [own] = await env.db.asOwner((tx) =>
    tx.query<{ profile_id: number; type_id: number; address_base: number; profile_base: number }>(
      `SELECT (SELECT p.id FROM payment_profile p JOIN instance i ON i.id = p.instance_id AND i.own_company_uuid = p.company_uuid
                WHERE p.instance_id = $1 ORDER BY p.id LIMIT 1) AS profile_id,
              (SELECT type_id FROM payment_profile WHERE instance_id = $1 ORDER BY id LIMIT 1) AS type_id,
              (SELECT coalesce(max(id), 0) + 1 FROM address WHERE instance_id = $1) AS address_base,
              (SELECT coalesce(max(id), 0) + 1 FROM payment_profile WHERE instance_id = $1) AS profile_base`,
      [id],
    ),
  );
  if (!own?.profile_id) throw new Error('the workplace has no payment profile of its own company');

  // Companies k = 0 … C-1 with deterministic uuids (so invoices and bills can name them by k).
  const companyUuid = (k: string) => `md5($1::text || 'company' || ${k})::uuid`;
  await step(`${sizes.companies} companies, addresses, payment profiles`, () =>
    env.db.asOwner(async (tx) => {
      await tx.query(
        `INSERT INTO company (instance_id, uuid, name, uid)
         SELECT $1::uuid, ${companyUuid('k')}, ${TRADES}[1 + k % 10] || ' ' || (ARRAY['Muster','Keller','Meier','Huber','Frei','Weber','Brunner','Gerber'])[1 + (k / 10) % 8] || ' ' || k || ' AG',
                CASE WHEN k % 3 = 0 THEN 'CHE-' || lpad((100000000 + k)::text, 9, '0') END
           FROM generate_series(0, $2::int - 1) AS k`,
        [id, sizes.companies],
      );
      await tx.query(
        `INSERT INTO address (instance_id, id, company_uuid, street, house_number, zip, city, country_id)
         SELECT $1::uuid, $3::int + k, ${companyUuid('k')}, 'Bahnhofstrasse', (1 + k % 200)::text, (1000 + k % 8000)::text, ${CITIES}[1 + k % 10], 1
           FROM generate_series(0, $2::int - 1) AS k`,
        [id, sizes.companies, own.address_base],
      );
      await tx.query(
        `INSERT INTO payment_profile (instance_id, id, company_uuid, type_id, iban, bic)
         SELECT $1::uuid, $3::int + k / 2, ${companyUuid('k')}, $4::smallint, 'CH9300762011623852957', ''
           FROM generate_series(0, $2::int - 1, 2) AS k`,
        [id, sizes.companies, own.profile_base, own.type_id],
      );
    }),
  );

  // Invoices: status by a digit of k (0 pending, 1–2 sent, 3–9 paid), 1 + k % 3 items.
  // The status digit of invoice k is not k % 10: invoice k belongs to company k % companies, and with
  // a number of companies divisible by 10 every invoice of a company would have the same status.
  const digit = (k: string) => `((${k}::bigint * 7919 / 7) % 10)`;
  const paid = (k: string) => `(${digit(k)} >= 3)`;
  const posted = (k: string) => `(${digit(k)} >= 1)`;
  const invoiceUuid = (k: string) => `md5($1::text || 'invoice' || ${k})::uuid`;
  let postedCount = 0;
  let paidCount = 0;
  for (let k = 0; k < sizes.invoices; k += 1) {
    const status = Math.floor((k * 7919) / 7) % 10;
    if (status >= 1) postedCount += 1;
    if (status >= 3) paidCount += 1;
  }
  const documentEntries = postedCount + paidCount;
  const plainEntries = Math.max(0, sizes.entries - documentEntries);
  // Entry ids: invoice k's sent posting firstEntry + k, its payment firstEntry + N + k (unused ids of
  // pending invoices stay gaps), then the plain entries.
  const firstEntry = await reserveIds(env, id, 'journal_entry', 2 * sizes.invoices + plainEntries);
  const firstLine = await reserveIds(env, id, 'journal_line', 2 * (2 * sizes.invoices + plainEntries));
  const invoiceDays = `(DATE '${TO}' - DATE '${INVOICES_FROM}')`;
  const invoiceDate = (k: string) => `(DATE '${INVOICES_FROM}' + (${k}::bigint * ${invoiceDays} / $2::int)::int)`;
  // Item j of invoice k: quantity 1 + (k + j) % 5, price 20.00 … 1,019.95 — the total computed as the app does (net + 8.1 %, rounded to 0.05).
  const itemsTotal = `(SELECT round(sum((1 + (k + j) % 5) * ((((k::bigint * 7919 + j * 104729) % 20000) + 400) * 0.05)) * 1.081 * 20) / 20
                         FROM generate_series(0, k % 3) AS j)`;

  await step(`${documentEntries} invoice postings (sent ${postedCount}, payments ${paidCount})`, () =>
    env.db.asOwner(async (tx) => {
      await tx.query(`SET LOCAL bilan.document_posting = 'on'`);
      await tx.query(
        `CREATE TEMP TABLE bench_invoice ON COMMIT DROP AS
         SELECT k, ${invoiceUuid('k')} AS uuid, ${invoiceDate('k')} AS date_invoice, ${itemsTotal}::numeric(20, 2) AS total
           FROM generate_series(0, $2::int - 1) AS k WHERE ${posted('k')}`,
        [id, sizes.invoices],
      );
      await tx.query(
        `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref)
         SELECT $1::uuid, $2::int + k, date_invoice, 'Rechnung ' || (k + 1), 'invoice', uuid::text FROM bench_invoice
         UNION ALL
         SELECT $1::uuid, $2::int + $3::int + k, date_invoice + 20, 'Zahlung Rechnung ' || (k + 1), 'invoice', uuid::text FROM bench_invoice WHERE ${paid('k')}`,
        [id, firstEntry, sizes.invoices],
      );
      await tx.query(
        `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
         SELECT $1::uuid, $2::int + 2 * e + s, $3::int + e, d, CASE s WHEN 0 THEN debit ELSE credit END, (1 - 2 * s)::smallint, total, $8::smallint, total, 1
           FROM (SELECT k AS e, date_invoice AS d, $5::int AS debit, $6::int AS credit, total FROM bench_invoice
                 UNION ALL
                 SELECT $4::int + k, date_invoice + 20, $7::int, $5::int, total FROM bench_invoice WHERE ${paid('k')}) AS x
          CROSS JOIN generate_series(0, 1) AS s`,
        [id, firstLine, firstEntry, sizes.invoices, account('1100'), account('3200'), account('1020'), currencyId],
      );
    }),
  );

  await step(`${sizes.invoices} invoices with ${'1–3'} items and ${paidCount} payments`, () =>
    env.db.asOwner(async (tx) => {
      await tx.query(
        `INSERT INTO invoice (instance_id, uuid, id, company_uuid, address_id, payment_profile_id, status_id, vat_rate, currency_id,
                              date_invoice, date_due, description, payment_reference, ledger_date, sent_entry_id, paid_entry_id)
         SELECT $1::uuid, ${invoiceUuid('k')}, 1 + k, md5($1::text || 'company' || (k % $3::int))::uuid, $4::int + k % $3::int, $5::int,
                CASE WHEN ${paid('k')} THEN 3 WHEN ${posted('k')} THEN 2 ELSE 1 END, 0.081, $6::smallint,
                ${invoiceDate('k')}, ${invoiceDate('k')} + 30, ${WORDS}[1 + k % 10] || ' ' || to_char(${invoiceDate('k')}, 'MM/YYYY'),
                'RF' || lpad(((k * 13) % 97)::text, 2, '0') || 'BL' || k,
                CASE WHEN ${posted('k')} THEN ${invoiceDate('k')} END,
                CASE WHEN ${posted('k')} THEN $7::int + k END,
                CASE WHEN ${paid('k')} THEN $7::int + $2::int + k END
           FROM generate_series(0, $2::int - 1) AS k`,
        [id, sizes.invoices, sizes.companies, own.address_base, own.profile_id, currencyId, firstEntry],
      );
      await tx.query(
        `INSERT INTO invoice_item (instance_id, id, invoice_uuid, label, quantity, price, currency_id, fx_rate, account_id)
         SELECT $1::uuid, 1 + 3 * k + j, ${invoiceUuid('k')}, ${WORDS}[1 + (k + j) % 10] || ' Position ' || (j + 1),
                1 + (k + j) % 5, (((k::bigint * 7919 + j * 104729) % 20000) + 400) * 0.05, $3::smallint, 1, $4::int
           FROM generate_series(0, $2::int - 1) AS k CROSS JOIN LATERAL generate_series(0, k % 3) AS j`,
        [id, sizes.invoices, currencyId, account('3200')],
      );
      await tx.query(
        `INSERT INTO invoice_payment (instance_id, invoice_uuid, date_paid, amount, bank_account_id, entry_id)
         SELECT $1::uuid, ${invoiceUuid('k')}, ${invoiceDate('k')} + 20, ${itemsTotal}::numeric(20, 2), $4::int, $3::int + $2::int + k
           FROM generate_series(0, $2::int - 1) AS k WHERE ${paid('k')}`,
        [id, sizes.invoices, firstEntry, account('1020')],
      );
    }),
  );

  // An invoice the app writes has its totals stored at once (migration 0052): the app's own read
  // computes and stores them here, as it does for invoices written before they were kept. The
  // tables just loaded are analyzed first, as autovacuum would: without statistics the planner
  // took them for empty: the read took 135 s for 30,000 invoices, and 12 s against 0.6 s after for 9,000.
  await step(`${sizes.invoices} invoices' totals stored`, async () => {
    await env.db.asOwner((tx) => tx.exec('ANALYZE invoice, invoice_item, invoice_payment, company, address, payment_profile'));
    await env.db.withInstance(id, (tx) => listInvoices(tx, id, {}));
  });

  await step(`${sizes.bills} bills`, () =>
    env.db.asOwner((tx) =>
      tx.query(
        `INSERT INTO payable (instance_id, id, type_id, company_uuid, payment_profile_id, date, due_date, amount, vat_amount, currency_id,
                              expense_account_id, reference_number, description, status)
         SELECT $1::uuid, 1 + k, 0, md5($1::text || 'company' || (k % $3::int))::uuid,
                CASE WHEN (k % $3::int) % 2 = 0 THEN $4::int + (k % $3::int) / 2 END,
                DATE '${INVOICES_FROM}' + (k::bigint * ${invoiceDays} / $2::int)::int, DATE '${INVOICES_FROM}' + (k::bigint * ${invoiceDays} / $2::int)::int + 30,
                ((k::bigint * 104729) % 300000 + 500) / 100.0, 0, $5::smallint, $6::int, 'B' || (100000 + k),
                ${WORDS}[1 + k % 10] || ' Lieferung ' || k,
                CASE WHEN (k::bigint * 7919 / 7) % 20 < 4 THEN 1 WHEN (k::bigint * 7919 / 7) % 20 < 7 THEN 2 WHEN (k::bigint * 7919 / 7) % 20 < 19 THEN 4 ELSE 5 END
           FROM generate_series(0, $2::int - 1) AS k`,
        [id, sizes.bills, sizes.companies, own.profile_base, currencyId, account('4000')],
      ),
    ),
  );

  // Plain entries over 40 accounts (the ledger benchmark's formulas), in transactions of 100,000.
  const chart = pickAccounts(accounts, 40).map((a) => a.id);
  if (!chart.includes(account('1020'))) chart[0] = account('1020');
  const days = Math.round((Date.parse(`${TO}T00:00:00Z`) - Date.parse(`${FROM}T00:00:00Z`)) / 86_400_000) + 1;
  const plainFirst = firstEntry + 2 * sizes.invoices;
  const plainLine = firstLine + 2 * 2 * sizes.invoices;
  await step(`${plainEntries} plain entries (${2 * plainEntries} lines)`, async () => {
    for (let start = 0; start < plainEntries; start += CHUNK) {
      const end = Math.min(plainEntries, start + CHUNK) - 1;
      await env.db.asOwner(async (tx) => {
        await tx.query(
          `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref)
           SELECT $1::uuid, $2::int + k, DATE '${FROM}' + (k::bigint * $3::int / $4::int)::int,
                  ${WORDS}[1 + k % 10] || ' ' || (ARRAY['Januar','Februar','März','April','Mai','Juni','Juli','August','September','Oktober','November','Dezember'])[1 + k % 12] || ' ' || k,
                  'import', 'L' || k
             FROM generate_series($5::int, $6::int) AS k`,
          [id, plainFirst, days, plainEntries, start, end],
        );
        await tx.query(
          `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
           SELECT $1::uuid, $2::int + 2 * k + s, $3::int + k, DATE '${FROM}' + (k::bigint * $4::int / $5::int)::int,
                  CASE WHEN s = 0 THEN ($6::int[])[1 + k % $7::int] ELSE ($6::int[])[1 + (k * 7 + 3) % $7::int] END,
                  (1 - 2 * s)::smallint, a.amount, $8::smallint, a.amount, 1
             FROM generate_series($9::int, $10::int) AS k
            CROSS JOIN LATERAL (SELECT ((((k::bigint * 7919) % 500000) + 1) / 100.0)::numeric(20, 2) AS amount) a
            CROSS JOIN generate_series(0, 1) AS s`,
          [id, plainLine, plainFirst, days, plainEntries, chart, chart.length, currencyId, start, end],
        );
      });
      log(`load: ${end + 1} of ${plainEntries} plain entries`);
    }
  });

  await step('VACUUM (ANALYZE)', async () => {
    if (!env.direct) throw new Error('the list benchmark needs PostgreSQL');
    await env.direct.query('VACUUM (ANALYZE)');
  });

  const tables = await env.db.asOwner((tx) =>
    tx.query<{ table: string; rows: string; mb: string }>(
      `SELECT t AS table, (SELECT reltuples::bigint FROM pg_class WHERE oid = t::regclass)::text AS rows,
              round(pg_total_relation_size(t::regclass) / 1048576.0, 1)::text AS mb
         FROM unnest(ARRAY['company', 'address', 'payment_profile', 'invoice', 'invoice_item', 'invoice_payment', 'payable',
                           'journal_entry', 'journal_line', 'account_period_balance', 'journal_entry_word', 'invoice_word', 'payable_word']) AS t
        WHERE to_regclass(t) IS NOT NULL`,
    ),
  );
  const [counts] = await env.db.asOwner((tx) =>
    tx.query<{ lines: string; items: string }>(
      `SELECT (SELECT count(*) FROM journal_line WHERE instance_id = $1)::text AS lines, (SELECT count(*) FROM invoice_item WHERE instance_id = $1)::text AS items`,
      [id],
    ),
  );
  return {
    sizes: {
      ...sizes,
      entries: documentEntries + plainEntries,
      journalLines: Number(counts!.lines),
      invoiceItems: Number(counts!.items),
      invoicePayments: paidCount,
      documentEntries,
      plainEntries,
    },
    steps,
    totalSeconds: round((Date.now() - started) / 1000, 1),
    tables: tables.map((t) => ({ table: t.table, rows: Number(t.rows), mb: Number(t.mb) })),
  };
}
