/**
 * Dext import (POST /api/mail/import) of CSV files as Excel writes them on Swiss machines: ';' as the
 * separator (regional list separator) and a UTF-8 byte order mark ("CSV UTF-8").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvDelimiter } from '../../src/modules/payables/mail-import.service.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { payableCounts, payablesWorkplace, type PayablesWorkplace } from './setup.js';

let server: TestServer;
let wp: PayablesWorkplace;
beforeAll(async () => {
  server = await startTestServer();
  wp = await payablesWorkplace(server);
});
afterAll(async () => server?.close());

const BOM = '\uFEFF';

describe('POST /api/mail/import with Swiss Excel CSV', () => {
  it("reads a ';'-separated file with a byte order mark, decimal commas included", async () => {
    const csv = `${BOM}Receipt Date;Supplier Name;Total;Tax Amount;Currency Code;Description\r\n23.10.2025;Papeterie Zürich AG;1'081,00;81,00;CHF;Papier, Couverts\r\n24.10.2025;"Bäckerei; Konditorei Huber";54,50;;CHF;Apéro\r\n`;
    const response = await wp.api.post('/api/mail/import', csv);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 2, bills: 2, companiesCreated: 2 });
    const bills = (await wp.api.post('/api/payable/list', { filters: { dateFrom: '2025-10-23', dateTo: '2025-10-24' } })).body.data as any[];
    expect(bills.map((b) => [b.date, b.company.name, b.amount, b.vatAmount, b.description]).sort()).toEqual([
      ['2025-10-23', 'Papeterie Zürich AG', '1081.00', '81.00', 'Papier, Couverts'],
      ['2025-10-24', 'Bäckerei; Konditorei Huber', '54.50', '0.00', 'Apéro'],
    ]);
  });

  it("reads a ','-separated file with a byte order mark (the BOM does not hide the first column)", async () => {
    const response = await wp.api.post('/api/mail/import', `${BOM}date,supplier,amount\n2025-10-30,SBB CFF FFS,12.40\n`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 1 });
  });

  it("reports bad rows of a ';' file by line and writes nothing", async () => {
    const before = await payableCounts(server, wp.instanceId);
    const response = await wp.api.post('/api/mail/import', `${BOM}date;supplier;amount\n2025-10-01;A AG;10,00\n31.02.2025;B AG;abc\n`);
    expect(response.status).toBe(400);
    expect(response.body.rows).toEqual([
      { row: 3, field: 'date', message: expect.any(String) },
      { row: 3, field: 'amount', message: expect.any(String) },
    ]);
    expect(await payableCounts(server, wp.instanceId)).toEqual(before);
  });

  it('decides the separator on the header line, outside quotes', () => {
    expect(csvDelimiter('date;supplier;amount\n2025-01-01;A;1,50')).toBe(';');
    expect(csvDelimiter(`${BOM}date,supplier,amount\n2025-01-01;A;1`)).toBe(',');
    expect(csvDelimiter('"a;b";c;d,e')).toBe(';');
    expect(csvDelimiter('"a;b;c",d')).toBe(',');
    expect(csvDelimiter('date')).toBe(',');
  });
});
