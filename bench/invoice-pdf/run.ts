/**
 * Invoice PDF benchmark (issue #4 §4): renders the A4 invoice with its Swiss QR-bill N times in one
 * process and reports PDFs per second and the median milliseconds per PDF (target ≤ 30 ms).
 * Usage: `npm run bench:pdf -w @bilan/bench [-- --n 300 --lines 10 --out sample.pdf]`.
 * Renders the real service function (apps/server invoicing.pdf.ts), no database involved. The JSON
 * includes the machine's load average before and after, since the machines are shared.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { invoiceLineTotal, invoiceQrReference, invoiceTotals } from '@bilan/domain';
import { renderInvoicePdf } from '../../apps/server/src/modules/invoicing/invoicing.pdf.js';
import type { Invoice } from '../../apps/server/src/modules/invoicing/invoicing.service.js';

const { values } = parseArgs({
  options: { n: { type: 'string', default: '300' }, lines: { type: 'string', default: '10' }, out: { type: 'string' }, lang: { type: 'string', default: 'de' } },
});
const n = Number(values.n);
const lineCount = Number(values.lines);

const items: Invoice['items'] = Array.from({ length: lineCount }, (_, i) => {
  const line = { quantity: String(i + 1), price: `${100 + i}.35`, discount: i % 3 === 0 ? '10' : null };
  const name = i === 0 ? 'Beratung Zürich – Ș ș Ț ț € Œ' : `Position ${i + 1}`;
  return {
    id: i + 1,
    name,
    amount: line.quantity,
    price: line.price,
    label: name,
    quantity: line.quantity,
    rate: line.price,
    discount: line.discount,
    discountAbs: null,
    vat: null,
    account: null,
    currency: 'CHF',
    fxRate: '1',
    logDateAdded: '2025-03-01T00:00:00.000Z',
    total: invoiceLineTotal(line),
  };
});
const invoice: Invoice = {
  uuid: '00000000-0000-4000-8000-000000000042',
  id: 42,
  refNumber: 'BILAN000042',
  refNumberInt: 42,
  paymentReference: invoiceQrReference(42),
  status: 1,
  statusName: 'pending',
  company: { uuid: '00000000-0000-4000-8000-000000000001', name: 'Simon Muster AG' },
  address: { id: 1, street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Seldwyla', country: { id: 1 } },
  paymentProfile: { id: 1, type: 2, iban: 'CH4431999123000889012', account: { id: 1 } },
  vat: '0.081',
  currency: 'CHF',
  fxRate: '1',
  baseCurrency: 'CHF',
  totalBase: '0.00',
  dateInvoice: '2025-03-01',
  dateDue: '2025-03-31',
  paymentTermDays: 30,
  description: 'Consulting March',
  bankRef: null,
  ledgerDate: null,
  items,
  totals: invoiceTotals(items.map((i) => ({ quantity: i.amount, price: i.price, discount: i.discount })), '0.081'),
  entries: [],
  shared: false,
};
invoice.totalBase = invoice.totals.total;
const creditor = {
  name: 'Bilan Demo GmbH',
  uid: 'CHE-123.456.788',
  vat_number: 'CHE-123.456.788 MWST',
  street: 'Bahnhofstrasse',
  house_number: '1',
  zip: '8001',
  city: 'Zürich',
  country_id: 1,
};
const lang = values.lang as 'de';

const loadBefore = loadavg()[0]!;
// Warm-up: font parsing (kept for the process by invoicing.pdf.ts) and JIT.
for (let i = 0; i < 10; i += 1) await renderInvoicePdf(invoice, creditor, lang, false);
const times: number[] = [];
// CPU time per PDF (user + system) says what a render costs even when the shared machine is busy.
const cpuTimes: number[] = [];
let bytes = 0;
const start = process.hrtime.bigint();
for (let i = 0; i < n; i += 1) {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  const pdf = await renderInvoicePdf(invoice, creditor, lang, false);
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  const cpu = process.cpuUsage(cpu0);
  cpuTimes.push((cpu.user + cpu.system) / 1000);
  bytes += pdf.length;
  if (i === 0 && values.out) writeFileSync(values.out, pdf);
}
const totalMs = Number(process.hrtime.bigint() - start) / 1e6;
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const p95 = times[Math.floor(times.length * 0.95)]!;
cpuTimes.sort((a, b) => a - b);
const medianCpu = cpuTimes[Math.floor(cpuTimes.length / 2)]!;
console.log(
  JSON.stringify(
    {
      pdfs: n,
      lines: lineCount,
      pdfsPerSecond: Number(((n / totalMs) * 1000).toFixed(1)),
      medianMs: Number(median.toFixed(2)),
      p95Ms: Number(p95.toFixed(2)),
      medianCpuMs: Number(medianCpu.toFixed(2)),
      averageKb: Number((bytes / n / 1024).toFixed(1)),
      node: process.version,
      cpus: cpus().length,
      load1mBefore: Number(loadBefore.toFixed(2)),
      load1mAfter: Number(loadavg()[0]!.toFixed(2)),
      target: 'median ≤ 30 ms',
      ok: median <= 30,
    },
    null,
    2,
  ),
);
