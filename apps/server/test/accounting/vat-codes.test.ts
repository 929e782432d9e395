/** VAT codes and VAT on postings (issue 13 §1–2, migration 0023, decision 019), on both engines. */
import { SWISS_VAT_CODES, VAT_RATE_TYPES, vatPercentAt } from '@bilan/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from './ledger.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('VAT codes as data', () => {
  let wp: LedgerWorkplace;
  beforeAll(async () => {
    wp = await ledgerWorkplace(server);
  });

  it('seeds the Swiss codes with the chart, equal to the domain seed', async () => {
    const rows = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<Record<string, unknown>>(
        `SELECT code, name, kind, rate_type AS "rateType", account_number AS "accountNumber",
                deduction_account_number AS "deductionAccountNumber", default_entry AS "defaultEntry",
                ziffer_base AS "zifferBase", ziffer_tax AS "zifferTax", ziffer_deduction AS "zifferDeduction", is_active AS "isActive"
           FROM vat_code WHERE instance_id = $1 ORDER BY code`,
        [wp.instanceId],
      ),
    );
    const expected = [...SWISS_VAT_CODES].map((code) => ({ ...code, isActive: true })).sort((a, b) => (a.code < b.code ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it('has the same rate table in SQL as in the domain', async () => {
    const dates = ['2010-12-31', '2011-01-01', '2017-12-31', '2018-01-01', '2023-12-31', '2024-01-01', '2030-06-30'];
    const cases = VAT_RATE_TYPES.flatMap((type) => dates.map((date) => ({ type, date })));
    const rows = await server.db.withInstance(wp.instanceId, (tx) =>
      tx.query<{ percent: string }>(
        `SELECT vat_rate_percent(t, d::date)::text AS percent FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS c(t, d, n) ORDER BY n`,
        [cases.map((c) => c.type), cases.map((c) => c.date)],
      ),
    );
    expect(rows.map((r) => Number(r.percent).toString())).toEqual(cases.map((c) => Number(vatPercentAt(c.type, c.date)).toString()));
  });
});
