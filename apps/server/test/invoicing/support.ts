/** Shared set-up of the invoicing API tests: a customer with an address and the own QR-IBAN profile. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import { PaymentProfileType } from '@bilan/domain';
import { createAddress, createCompany, createPaymentProfile } from '../../src/modules/companies/companies.service.js';
import { Client, createWorkplace, type TestServer, type Workplace } from '../helpers.js';

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
// jsqr is CommonJS with `exports.default`; depending on the loader the function is the default or its `.default`.
const jsQR: JsQr = ((jsQRModule as unknown as { default?: JsQr }).default ?? jsQRModule) as unknown as JsQr;

export const QR_IBAN = 'CH4431999123000889012';

export interface InvoicingWorkplace extends Workplace {
  customer: string;
  address: number;
  /** Own QR-IBAN profile on ledger account 1020. */
  qrProfile: number;
  /** Own IBAN profile created by onboarding. */
  ibanProfile: number;
  account: (number: string) => Promise<number>;
}

/** The invoice PDF of `uuid` as workplace `w` downloads it (`POST /api/invoice/pdf`); throws unless 200. */
export async function invoicePdf(server: TestServer, w: { token: string }, uuid: string, lang = 'en'): Promise<Buffer> {
  const response = await fetch(`${server.baseUrl}/api/invoice/pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` },
    body: JSON.stringify({ lang, uuid }),
  });
  if (response.status !== 200) throw new Error(`invoice PDF: ${response.status} ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

export async function invoicingWorkplace(server: TestServer): Promise<InvoicingWorkplace> {
  const wp = await createWorkplace(server);
  return server.db.withInstance(wp.instanceId, async (tx) => {
    const customer = await createCompany(tx, wp.instanceId, { name: 'Simon Muster AG' });
    const address = await createAddress(tx, wp.instanceId, customer, { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Seldwyla', countryId: 1 });
    const [bank] = await tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE instance_id = $1 AND number = '1020'", [wp.instanceId]);
    const qrProfile = await createPaymentProfile(tx, wp.instanceId, {
      companyUuid: wp.companyUuid!,
      accountId: bank!.id,
      typeId: PaymentProfileType.QrBill,
      iban: QR_IBAN,
      bic: null,
    });
    const [iban] = await tx.query<{ id: number }>('SELECT id FROM payment_profile WHERE instance_id = $1 AND type_id = 1 ORDER BY id LIMIT 1', [wp.instanceId]);
    return {
      ...wp,
      customer,
      address,
      qrProfile,
      ibanProfile: iban!.id,
      account: async (number: string) => {
        const [row] = await server.db.withInstance(wp.instanceId, (t) =>
          t.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND number = $2', [wp.instanceId, number]),
        );
        return row!.id;
      },
    };
  });
}

/** A second member of `wp`'s instance with another role (403 checks). */
export async function memberClient(server: TestServer, wp: Workplace, role: 'viewer' | 'accountant'): Promise<Client> {
  const token = await server.db.withAuth(async (tx) => {
    const [user] = await tx.query<{ id: string }>(
      `INSERT INTO app_user (email, first_name, last_name) VALUES ($1, 'View', 'Er') RETURNING id`,
      [`${role}.${Math.random().toString(36).slice(2, 9)}@example.ch`],
    );
    await tx.query('INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, $3)', [wp.instanceId, user!.id, role]);
    return (await server.app.sessions.start(tx, user!.id, wp.instanceId, {})).accessToken;
  });
  return new Client(server.baseUrl, token);
}

/** Two lines, one with a percent discount: net 249.33, VAT 8.1 % 20.20, gross 269.53, due 269.55. */
export const invoiceData = (wp: InvoicingWorkplace, profile = wp.qrProfile) => ({
  company: { uuid: wp.customer },
  address: { id: wp.address },
  paymentProfile: { id: profile },
  vat: '0.081',
  dateInvoice: '2025-03-01',
  dateDue: '2025-03-31',
  description: 'Consulting March',
  items: [
    { name: 'Workshop', amount: '2', price: '120.00', discount: '10' },
    { name: 'Travel Zürich–Genève', amount: '1', price: '33.33' },
  ],
});

/** Renders every page of a PDF to PNG with pdftoppm and decodes the first QR code found (jsQR). */
export function decodeQrFromPdf(pdf: Buffer, dpi = 200): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pdf-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', join(dir, 'in.pdf'), join(dir, 'page')]);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.png')).sort()) {
      const png = PNG.sync.read(readFileSync(join(dir, file)));
      const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
      if (code) return new TextDecoder('utf-8').decode(new Uint8Array(code.binaryData));
    }
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page count of a PDF (pdfinfo). */
export function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pdf-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'in.pdf')]).toString();
    return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** POSTs `body` to `path` as `w` and answers the body; fails the test on anything but 200. */
export async function ok(w: { api: Workplace['api'] }, path: string, body: unknown) {
  const answer = await w.api.post(path, body);
  expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body;
}

/** The balance of ledger account `number` over all time, as the balance endpoint shows it. */
export async function accountBalance(w: { api: Workplace['api'] }, number: string): Promise<string> {
  const response = await w.api.post('/api/accounting/balance/get', { date: '2099-12-31' });
  return response.body.accounts.find((a: { number: string }) => a.number === number)?.balance ?? '0.00';
}

/** How many journal entries the workplace's books hold. */
export async function journalEntryCount(server: TestServer, w: { instanceId: string }): Promise<number> {
  const [row] = await server.db.withInstance(w.instanceId, (tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM journal_entry'));
  return row!.n;
}
