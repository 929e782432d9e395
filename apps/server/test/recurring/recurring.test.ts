/**
 * Recurring invoices (issue 15 §4, decision 031) on both engines, with a clock the test controls:
 * a monthly template created over HTTP; after 'downtime' the job catches up every missed period
 * (month ends clamped: 31 Jan → 28 Feb); each period's invoice is created once even when two runners
 * (on PostgreSQL two connection pools) and direct runs race for it; nothing after the end date;
 * 'send automatically' posts and e-mails each invoice; refusals name the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/db/database.js';
import { JobRunner } from '../../src/modules/jobs/job-runner.js';
import { RecurringInvoices, RECURRING_QUEUE, periodDate } from '../../src/modules/recurring/recurring.service.js';
import { engine, startTestServer, type TestServer } from '../helpers.js';
import { invoiceData, invoicingWorkplace, type InvoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let wp: InvoicingWorkplace;
let second: Database | undefined;
beforeAll(async () => {
  server = await startTestServer({ BILAN_JOB_POLL_SECONDS: '0' });
  wp = await invoicingWorkplace(server);
  if (engine === 'postgres') second = await openPostgres(server.url!);
});
afterAll(async () => {
  await second?.close();
  await server?.close();
});

/** The test's clock: `now` for the services, and the queue's waiting jobs moved back by the same seconds. */
let now = new Date('2025-03-05T10:00:00+01:00');
async function advanceTo(iso: string) {
  const next = new Date(iso);
  const seconds = Math.ceil((next.getTime() - now.getTime()) / 1000);
  now = next;
  await server.db.asOwner((tx) =>
    tx.query(`UPDATE pgboss.job SET start_after = start_after - make_interval(secs => $2) WHERE name = $1 AND state < 'active'`, [RECURRING_QUEUE, seconds]),
  );
}

async function ok(path: string, body: unknown) {
  const answer = await wp.api.post(path, body);
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}
function templateData(overrides: Record<string, unknown> = {}) {
  const { dateInvoice: _d, dateDue: _due, ...head } = invoiceData(wp);
  return { ...head, description: 'Hosting', interval: 'monthly', startDate: '2025-01-31', endDate: '2025-05-15', paymentTermDays: 10, sendMode: 'draft', ...overrides };
}
async function runsOf(uuid: string) {
  const detail = await ok('/api/recurring/detail', { uuid });
  return detail as { nextDate: string; isRunning: boolean; runs: { periodDate: string; invoice: { uuid: string; status: number } | null; sent: boolean; error: string | null }[] };
}

describe('recurring invoices', () => {
  it('counts periods from the start, clamping the day to the month end', () => {
    expect([0, 1, 2, 3, 13].map((n) => periodDate('2024-01-31', 'monthly', n))).toEqual(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2025-02-28']);
    expect(periodDate('2025-11-30', 'quarterly', 1)).toBe('2026-02-28');
    expect(periodDate('2024-02-29', 'yearly', 1)).toBe('2025-02-28');
  });

  it('catches up missed periods, creates each once across two runners and stops after the end date', async () => {
    const runnerA = await JobRunner.create(server.db, { pollSeconds: 0, name: 'A' });
    const serviceA = new RecurringInvoices(server.db, runnerA, { mailer: server.app.mailer, publicUrl: server.baseUrl, now: () => now });
    const dbB = second ?? server.db;
    const runnerB = await JobRunner.create(dbB, { pollSeconds: 0, name: 'B' });
    const serviceB = new RecurringInvoices(dbB, runnerB, { mailer: server.app.mailer, publicUrl: server.baseUrl, now: () => now });

    const template = await ok('/api/recurring/insert', { data: templateData() });
    expect(template).toMatchObject({ nextDate: '2025-01-31', isRunning: true, runs: [] });

    // 5 March: January and February were missed (the job waited since 31 January): both are created now.
    await Promise.all([runnerA.drain(), runnerB.drain()]);
    let state = await runsOf(template.uuid);
    expect(state.runs.map((r) => r.periodDate)).toEqual(['2025-02-28', '2025-01-31']);
    expect(state.nextDate).toBe('2025-03-31');
    const first = await ok('/api/invoice/detail', { id: state.runs[1]!.invoice!.uuid });
    expect(first).toMatchObject({ status: 1, dateInvoice: '2025-01-31', dateDue: '2025-02-10', description: 'Hosting', company: { uuid: wp.customer } });
    expect(first.items).toHaveLength(2);
    expect(await ok('/api/recurring/by-invoice', { uuid: first.uuid })).toEqual({ recurring: { uuid: template.uuid, periodDate: '2025-01-31' } });
    // Nothing is due before 31 March: the next job waits.
    expect(await runnerA.drain()).toBe(0);

    // 30 June (downtime over April–June): March and April are due, May 31 is after the end date.
    // Both runners and both services race for the same periods.
    await advanceTo('2025-06-30T09:00:00+02:00');
    await Promise.all([runnerA.drain(), runnerB.drain(), serviceA.run(wp.instanceId, template.id), serviceB.run(wp.instanceId, template.id), serviceA.run(wp.instanceId, template.id)]);
    state = await runsOf(template.uuid);
    expect(state.runs.map((r) => r.periodDate)).toEqual(['2025-04-30', '2025-03-31', '2025-02-28', '2025-01-31']);
    expect(state.runs.every((r) => r.invoice !== null && !r.sent)).toBe(true);
    expect(new Set(state.runs.map((r) => r.invoice!.uuid)).size).toBe(4);
    expect(state).toMatchObject({ nextDate: '2025-05-31', isRunning: false });
    const invoices = await ok('/api/invoice/list-w-amounts', { filters: { text: 'Hosting' } });
    expect(invoices.total).toBe(4);

    // Later on, nothing more: the end date has passed and no job waits.
    await advanceTo('2026-01-10T09:00:00+01:00');
    await Promise.all([runnerA.drain(), runnerB.drain(), serviceA.run(wp.instanceId, template.id)]);
    expect((await runsOf(template.uuid)).runs).toHaveLength(4);
    await runnerA.stop();
    await runnerB.stop();
  });

  it("'send automatically' posts and e-mails each invoice to the template's contacts", async () => {
    const runner = await JobRunner.create(server.db, { pollSeconds: 0 });
    now = new Date('2026-02-02T08:00:00+01:00');
    // Registers the queue's handler on this runner, with the test's clock.
    new RecurringInvoices(server.db, runner, { mailer: server.app.mailer, publicUrl: server.baseUrl, now: () => now });
    const contact = await ok('/api/company/contact/insert', { company: { uuid: wp.customer }, name: 'Anna', email: 'anna@simon-muster.ch', lang: 'de' });
    const template = await ok('/api/recurring/insert', {
      data: templateData({ description: 'Licence', interval: 'quarterly', startDate: '2026-01-01', endDate: null, sendMode: 'send', contactIds: [contact.id] }),
    });
    await runner.drain();
    const state = await runsOf(template.uuid);
    expect(state.runs).toHaveLength(1);
    expect(state.runs[0]).toMatchObject({ periodDate: '2026-01-01', sent: true, error: null, invoice: { status: 2 } });
    expect(state.nextDate).toBe('2026-04-01');
    const messages = await ok('/api/invoice/messages', { uuid: state.runs[0]!.invoice!.uuid });
    expect(messages.data).toHaveLength(1);
    expect(messages.data[0].to).toEqual(['anna@simon-muster.ch']);
    await runner.stop();
  });

  it('refuses bad templates with 400 naming the field and stores nothing', async () => {
    const before = (await wp.api.get('/api/recurring/list')).body.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ interval: 'weekly' }, 'data.interval'],
      [{ endDate: '2024-12-31' }, 'data.endDate'],
      [{ sendMode: 'send', contactIds: [] }, 'data.contactIds'],
      [{ vat: '0.5' }, 'data.vat'],
      [{ items: [{ name: '', amount: '1', price: '1' }] }, 'data.items.0.name'],
      [{ paymentTermDays: -1 }, 'data.paymentTermDays'],
    ];
    for (const [override, field] of cases) {
      const answer = await wp.api.post('/api/recurring/insert', { data: templateData(override) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(Object.keys(answer.body.fields ?? {}), JSON.stringify(answer.body)).toContain(field);
    }
    expect((await wp.api.get('/api/recurring/list')).body.total).toBe(before);
  });
});
