/**
 * Bank import benchmark (issue 14 §4: "camt.053 of 10,000 entries imports + auto-matches in ≤ 3 s
 * on PostgreSQL"). A fresh PostgreSQL database with the real app (bench/ledger/setup.ts), one
 * onboarded workplace (bank 1020 on CH9300762011623852957) and, in its books, one manual entry per
 * "known" line (1020 debit, distinct amount, same date). A generated camt.053.001.08 of `--entries`
 * entries, by i mod 10:
 *   0–3 credit already in the books (amount + date: matched to its posting, nothing booked)
 *   4–5 credit with a creditor reference (SCOR) no invoice has (indexed reference lookup, open)
 *   6   debit with an end-to-end id no bill has (indexed end-to-end lookup, open)
 *   7   debit NOTPROVIDED with a charges record (its charges line booked to 6940)
 *   8–9 credit of an amount nothing has (open)
 * Timed: POST /api/banking/integrations/transactions with the file (parse, checks, set-based insert,
 * matching, charges bookings, claims; one transaction), on a fresh copy of the workplace per run
 * (the file's lines would be duplicates the second time). Beside it the floor: the same file parsed
 * (`parseCamt`) and its lines inserted with one `INSERT … SELECT FROM unnest(…)` into a bare
 * table of the same columns — the least any import must do. Prints JSON (progress on stderr).
 * `npm run bench:bank -w @bilan/bench [-- --entries N --runs N --pg-url URL]`.
 */
import { parseArgs } from 'node:util';
import { parseCamt } from '../../apps/server/src/modules/banking/bank-files.js';
import { postJournalEntry } from '../../apps/server/src/modules/accounting/accounting.service.js';
import { log, machineInfo, round, timed } from '../ledger/measure.js';
import { createWorkplace, startEnv, type Workplace } from '../ledger/setup.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '3' },
    'pg-url': { type: 'string' },
  },
});
const entries = Number(values.entries);
const runs = Number(values.runs);
const pgUrl = values['pg-url'] ?? process.env.BILAN_BENCH_PG_URL ?? process.env.BILAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IBAN = 'CH9300762011623852957';

const dateOf = (i: number) => `2025-11-${String(1 + (i % 28)).padStart(2, '0')}`;
/** Distinct per line, so amount + date finds exactly one posting. */
const amountOf = (i: number) => (100 + i / 100).toFixed(2);
const hex32 = (i: number) => `bench${String(i).padStart(27, '0')}`.replace(/[^0-9a-f]/g, 'b').slice(0, 32);

function camt053(run: number): { xml: string; known: number[] } {
  const known: number[] = [];
  let balance = 0;
  const body: string[] = [];
  for (let i = 0; i < entries; i += 1) {
    const kind = i % 10;
    const amount = amountOf(i);
    const dir = kind === 6 || kind === 7 ? 'DBIT' : 'CRDT';
    if (kind <= 3) known.push(i);
    const charges = kind === 7 ? '<Chrgs><TtlChrgsAndTaxAmt Ccy="CHF">1.50</TtlChrgsAndTaxAmt><Rcrd><Amt Ccy="CHF">1.50</Amt><CdtDbtInd>DBIT</CdtDbtInd></Rcrd></Chrgs>' : '';
    const entryAmount = kind === 7 ? (Number(amount) + 1.5).toFixed(2) : amount;
    balance += (dir === 'CRDT' ? 1 : -1) * Math.round(Number(entryAmount) * 100);
    const e2e = kind === 6 ? hex32(i) : 'NOTPROVIDED';
    const ref = kind === 4 || kind === 5 ? `<RmtInf><Strd><CdtrRefInf><Ref>RF18${String(539007547034 + i)}</Ref></CdtrRefInf></Strd></RmtInf>` : '';
    body.push(`<Ntry><Amt Ccy="CHF">${entryAmount}</Amt><CdtDbtInd>${dir}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${dateOf(i)}</Dt></BookgDt><ValDt><Dt>${dateOf(i)}</Dt></ValDt>
<AcctSvcrRef>B${run}-${i}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${dir === 'CRDT' ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>${charges}
<NtryDtls><TxDtls><Refs><EndToEndId>${e2e}</EndToEndId></Refs><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>${dir}</CdtDbtInd><RltdPties><${dir === 'CRDT' ? 'Dbtr' : 'Cdtr'}><Pty><Nm>Kunde ${i}</Nm></Pty></${dir === 'CRDT' ? 'Dbtr' : 'Cdtr'}></RltdPties>${ref}</TxDtls></NtryDtls></Ntry>`);
  }
  const bal = (type: string, cents: number, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${type}</Cd></CdOrPrtry></Tp><Amt Ccy="CHF">${(Math.abs(cents) / 100).toFixed(2)}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>BENCH-${run}</MsgId><CreDtTm>2025-11-30T20:00:00</CreDtTm></GrpHdr>
<Stmt><Id>BENCH-${run}-1</Id><CreDtTm>2025-11-30T20:00:00</CreDtTm><Acct><Id><IBAN>${IBAN}</IBAN></Id><Ccy>CHF</Ccy></Acct>
${bal('OPBD', 0, '2025-11-01')}${bal('CLBD', balance, '2025-11-30')}
${body.join('\n')}
</Stmt></BkToCstmrStmt></Document>`;
  return { xml, known };
}

const env = await startEnv('postgres', pgUrl);
try {
  const results: { importMs: number; floorMs: number; parseMs: number; matched: number; known: number; booked: number; imported: number }[] = [];
  for (let run = 1; run <= runs; run += 1) {
    const workplace: Workplace = await createWorkplace(env, `bank-${run}`);
    const bank = workplace.accounts.get('1020')!;
    const equity = workplace.accounts.get('2800')!;
    const { xml, known } = camt053(run);
    log(`run ${run}: ${known.length} entries in the books, file ${(xml.length / 1e6).toFixed(1)} MB`);
    await env.db.withInstance(workplace.instanceId, async (tx) => {
      for (const i of known) {
        await postJournalEntry(tx, workplace.instanceId, null, {
          dateLedger: dateOf(i),
          description: `Einzahlung ${i}`,
          lines: [{ accountId: bank, amount: amountOf(i), direction: 1 }, { accountId: equity, amount: amountOf(i), direction: -1 }],
        });
      }
    });
    await env.direct?.query('VACUUM ANALYZE');

    const { value: answer, ms: importMs } = await timed(() => workplace.api.postXml('/api/banking/integrations/transactions', xml));
    log(`run ${run}: import ${round(importMs)} ms: ${JSON.stringify({ imported: answer.imported, matched: answer.matched, known: answer.known, booked: answer.booked })}`);

    // The floor: parse, and one INSERT … SELECT FROM unnest of the same lines into a bare table.
    const { value: doc, ms: parseMs } = await timed(async () => parseCamt(xml));
    const lines = doc.records.flatMap((record) => record.entries.flatMap((entry) => entry.transactions.map((t) => ({ entry, t }))));
    const floor = await timed(async () => {
      await env.direct!.query('BEGIN');
      await env.direct!.query(`CREATE TEMP TABLE IF NOT EXISTS floor_line (key text PRIMARY KEY, booking_date date, direction integer, amount numeric(20,2), currency text, reference text, end_to_end_id text, counterparty text) ON COMMIT DELETE ROWS`);
      await env.direct!.query(
        `INSERT INTO floor_line SELECT * FROM unnest($1::text[], $2::date[], $3::integer[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::text[]) ON CONFLICT DO NOTHING`,
        [
          lines.map((l, i) => `${l.entry.accountServicerRef ?? ''}#${i}`),
          lines.map((l) => l.entry.bookingDate),
          lines.map((l) => l.t.direction),
          lines.map((l) => l.t.amount),
          lines.map((l) => l.t.currency),
          lines.map((l) => l.t.reference),
          lines.map((l) => l.t.endToEndId),
          lines.map((l) => l.t.counterparty),
        ],
      );
      await env.direct!.query('COMMIT');
    });
    results.push({ importMs, floorMs: parseMs + floor.ms, parseMs, matched: answer.matched, known: answer.known, booked: answer.booked, imported: answer.imported });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    JSON.stringify(
      {
        benchmark: 'bank-import',
        engine: env.engine,
        server: env.serverVersion,
        machine: machineInfo(),
        entries,
        runs,
        lines: results[0]!.imported,
        matched: results[0]!.matched,
        foundInTheBooks: results[0]!.known,
        booked: results[0]!.booked,
        importSeconds: round(median(results.map((r) => r.importMs)) / 1000, 3),
        floorSeconds: round(median(results.map((r) => r.floorMs)) / 1000, 3),
        parseSeconds: round(median(results.map((r) => r.parseMs)) / 1000, 3),
        targetSeconds: 3,
        allRunsSeconds: results.map((r) => round(r.importMs / 1000, 3)),
      },
      null,
      2,
    ),
  );
} finally {
  await env.close();
}
