/**
 * Search benchmark (issue 17 §1: "one search call that answers in ≤ 50 ms at 100,000 documents").
 * A fresh PostgreSQL database with the real app (bench/ledger/setup.ts), one onboarded workplace,
 * and 100,000 documents bulk-loaded as the owner: 40,000 two-line journal entries, 30,000 invoices
 * and 30,000 bills, with descriptions drawn from a few hundred words (so common words match
 * thousands of rows and rare ones a handful). Timed through HTTP (`GET /api/search?q=`), medians
 * and p90 of `--runs`: a common word, a rare word, an amount, a number, a QR reference, and
 * `GET /api/meta/version` as the floor of an HTTP round trip. Prints JSON, with the rows and
 * megabytes of the words tables (migration 0044); no assertion on time. `--explain` adds the plans
 * of every statement the modules' search functions run for those queries, and which index each
 * table was read through.
 * `npm run bench:search -w @bilan/bench [-- --documents N --runs N --pg-url URL --explain]`.
 */
import { parseArgs } from 'node:util';
import { log, machineInfo, repeat, round, timed } from '../ledger/measure.js';
import type { Tx } from '../../apps/server/src/db/database.js';
import { priceReadsForSearch } from '../../apps/server/src/db/search.js';
import { searchJournalEntries } from '../../apps/server/src/modules/accounting/accounting.service.js';
import { searchInvoices } from '../../apps/server/src/modules/invoicing/invoice-search.js';
import { searchBills } from '../../apps/server/src/modules/payables/bill-search.js';
import { readSearchQuery } from '../../apps/server/src/modules/search/search.routes.js';
import { createWorkplace, reserveIds, startEnv } from '../ledger/setup.js';

const { values } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '30' },
    'pg-url': { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});
const documents = Number(values.documents);
const runs = Number(values.runs);
const pgUrl = values['pg-url'] ?? process.env.BILAN_BENCH_PG_URL ?? process.env.BILAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const entries = Math.round(documents * 0.4);
const invoices = Math.round(documents * 0.3);
const bills = documents - entries - invoices;

// Descriptions: word k % 300 of this list, a customer or supplier word, and a running number.
const WORDS_SQL = `(ARRAY['Beratung','Wartung','Reparatur','Software','Lizenz','Miete','Strom','Reinigung','Transport','Druck'])`;

const env = await startEnv('postgres', pgUrl);
try {
  const workplace = await createWorkplace(env, 'search');
  const { instanceId, accounts } = workplace;
  const company = await workplace.api.post<{ uuid: string }>('/api/company/insert', {
    data: { name: 'Muster Kunde AG', address: { street: 'Marktgasse', houseNumber: '5', zip: '3011', city: 'Bern', country: { id: 1 } } },
  });
  const [refs] = await env.db.asOwner((tx) =>
    tx.query<{ address_id: number; profile_id: number }>(
      `SELECT (SELECT id FROM address WHERE instance_id = $1 AND company_uuid = $2 LIMIT 1) AS address_id,
              (SELECT id FROM payment_profile WHERE instance_id = $1 ORDER BY id LIMIT 1) AS profile_id`,
      [instanceId, company.uuid],
    ),
  );
  const firstEntry = await reserveIds(env, instanceId, 'journal_entry', entries);
  const firstLine = await reserveIds(env, instanceId, 'journal_line', entries * 2);
  log(`bulk load: ${entries} entries, ${invoices} invoices, ${bills} bills`);
  const load = await timed(async () => {
    await env.db.asOwner(async (tx) => {
      await tx.query(
        `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source)
         SELECT $1::uuid, $2::int + k, DATE '2020-01-01' + (k % 2000), ${WORDS_SQL}[1 + k % 10] || ' ' || 'Posten' || (k % 300) || ' Nr. ' || k, 'manual'
           FROM generate_series(0, $3::int - 1) AS k`,
        [instanceId, firstEntry, entries],
      );
      await tx.query(
        `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
         SELECT $1::uuid, $2::int + 2 * k + s, $3::int + k, DATE '2020-01-01' + (k % 2000), CASE s WHEN 0 THEN $5::int ELSE $6::int END,
                CASE s WHEN 0 THEN 1 ELSE -1 END, ((k::bigint * 7919) % 500000 + 100) / 100.0, $7::smallint, ((k::bigint * 7919) % 500000 + 100) / 100.0, 1
           FROM generate_series(0, $4::int - 1) AS k CROSS JOIN generate_series(0, 1) AS s`,
        [instanceId, firstLine, firstEntry, entries, accounts.get('6500'), accounts.get('1020'), workplace.currencyId],
      );
    });
    await env.db.asOwner((tx) =>
      tx.query(
        `INSERT INTO invoice (instance_id, id, company_uuid, address_id, payment_profile_id, vat_rate, date_invoice, date_due, description, payment_reference)
         SELECT $1::uuid, 1 + k, $2::uuid, $3::int, $4::int, 0.081, DATE '2020-01-01' + (k % 2000), DATE '2020-01-31' + (k % 2000),
                ${WORDS_SQL}[1 + k % 10] || ' Auftrag' || (k % 300) || ' Nr. ' || k, 'RF' || lpad(((k * 13) % 97)::text, 2, '0') || 'BENCH' || k
           FROM generate_series(0, $5::int - 1) AS k`,
        [instanceId, company.uuid, refs!.address_id, refs!.profile_id, invoices],
      ),
    );
    await env.db.asOwner((tx) =>
      tx.query(
        `INSERT INTO payable (instance_id, id, type_id, company_uuid, date, amount, currency_id, description, reference_number)
         SELECT $1::uuid, 1 + k, k % 2, $2::uuid, DATE '2020-01-01' + (k % 2000), ((k::bigint * 104729) % 300000 + 500) / 100.0, 1,
                ${WORDS_SQL}[1 + k % 10] || ' Lieferung' || (k % 300) || ' Nr. ' || k, 'B' || k
           FROM generate_series(0, $3::int - 1) AS k`,
        [instanceId, company.uuid, bills],
      ),
    );
  });
  // The words tables too: filled by the triggers during the load, they need statistics and a
  // visibility map (index-only scans) as autovacuum would give them.
  await env.direct!.query('VACUUM (ANALYZE) journal_entry, journal_line, invoice, payable, journal_entry_word, invoice_word, payable_word');
  // What the words cost in space: rows, and megabytes with their indexes.
  const wordsTables = await env.db.asOwner((tx) =>
    tx.query<{ table: string; rows: string; mb: string }>(
      `SELECT t AS table, (SELECT reltuples::bigint FROM pg_class WHERE oid = t::regclass)::text AS rows,
              round(pg_total_relation_size(t::regclass) / 1048576.0, 1)::text AS mb
         FROM unnest(ARRAY['journal_entry', 'journal_entry_word', 'invoice', 'invoice_word', 'payable', 'payable_word']) AS t`,
    ),
  );
  log('timing');

  const search = (q: string) => () => workplace.api.get(`/api/search?q=${encodeURIComponent(q)}`);
  const options = { runs, warmup: 3 };
  const sample = await workplace.api.get<{ data: unknown[] }>(`/api/search?q=${encodeURIComponent('Beratung')}`);
  const figures = {
    floorMetaVersion: await repeat(() => workplace.api.get('/api/meta/version'), options),
    commonWord: await repeat(search('Beratung'), options),
    rareWord: await repeat(search('Posten17 Nr. 3917'), options),
    amount: await repeat(search('1 234,56'), options),
    number: await repeat(search('12345'), options),
    reference: await repeat(search('RF00BENCH0'), options),
  };
  let explain: Record<string, { sql: string; scans: string[]; ms: number; plan: string[] }[]> | undefined;
  if (values.explain) {
    // The plans of the statements the application runs, as it runs them (role bilan_app, row-level
    // security on, the search's planner setting): the three modules' search functions called with a
    // transaction that explains each statement before running it.
    explain = {};
    for (const q of ['Beratung', 'Posten17 Nr. 3917', '1 234,56', '12345', 'RF00BENCH0']) {
      const plans: { sql: string; scans: string[]; ms: number; plan: string[] }[] = [];
      await env.db.withInstance(instanceId, async (tx) => {
        await priceReadsForSearch(tx);
        const explaining: Tx = {
          exec: (script) => tx.exec(script),
          async query<R extends Record<string, unknown>>(text: string, params?: readonly unknown[]) {
            if (!text.includes('search_words(')) {
              const plan = (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params)).map((r) => r['QUERY PLAN']);
              // One line per table read: how it was read, and with which index.
              const scans = plan
                .map((line) => /(\w[\w ]*?Scan(?: Backward)?)(?: using (\w+))? on (\w+)/.exec(line))
                .flatMap((m) => (m ? [`${m[1]} ${m[3]}${m[2] ? ` (${m[2]})` : ''}`] : []));
              const ms = Number(/Execution Time: ([\d.]+)/.exec(plan.at(-1) ?? '')?.[1]);
              plans.push({ sql: text.replace(/\s+/g, ' ').slice(0, 120), scans, ms, plan });
            }
            return tx.query<R>(text, params);
          },
        };
        const read = readSearchQuery(q);
        await searchInvoices(explaining, instanceId, read, 8);
        await searchBills(explaining, instanceId, read, 8);
        await searchJournalEntries(explaining, instanceId, { id: read.number, amount: read.amount, text: read.text }, 8);
      });
      explain[q] = plans;
    }
  }
  console.log(
    JSON.stringify(
      {
        benchmark: 'search',
        engine: env.engine,
        serverVersion: env.serverVersion,
        machine: machineInfo(),
        documents: { entries, invoices, bills, journalLines: entries * 2 },
        loadMs: round(load.ms),
        hitsForCommonWord: sample.data.length,
        wordsTables,
        search: figures,
        targetMs: 50,
        ...(explain ? { explain } : {}),
      },
      null,
      2,
    ),
  );
} finally {
  await env.close();
}
