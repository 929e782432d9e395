/**
 * The letterhead (issue 15 §6) over HTTP on both engines: contact block and logo saved and read
 * back, the logo's type decided by its bytes, refusals naming the field and changing nothing,
 * admin only, and tenant isolation.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkplace, engine, startTestServer, type TestServer, type Workplace } from '../helpers.js';
import { invoiceData, invoicePdf, invoicingWorkplace } from '../invoicing/support.js';

let server: TestServer;
let owner: Workplace;
beforeAll(async () => {
  server = await startTestServer();
  owner = await createWorkplace(server);
});
afterAll(async () => server?.close());

/** A real 2×1 PNG (signature, IHDR, IDAT, IEND with their CRCs). */
export function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const pixels = Buffer.from([0, 0x1c, 0x7e, 0xd6, 0xff, 0xff, 0xff]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

describe('GET /api/instance/letterhead, POST /api/instance/letterhead/update', () => {
  it('starts empty, saves the contact block and a PNG logo, keeps the logo when only the contact changes, removes it on null', async () => {
    expect((await owner.api.get('/api/instance/letterhead')).body).toEqual({ phone: '', email: '', website: '', logo: null });
    const png = tinyPng();
    const saved = await owner.api.post('/api/instance/letterhead/update', {
      data: { phone: '+41 44 123 45 67', email: 'info@muster.ch', website: 'www.muster.ch', logo: { type: 'image/jpeg', data: png.toString('base64') } },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // The bytes decide: a PNG declared as JPEG is stored as the PNG it is.
    expect(saved.body).toMatchObject({ phone: '+41 44 123 45 67', email: 'info@muster.ch', website: 'www.muster.ch', logo: { type: 'image/png', size: png.length } });
    expect(saved.body.logo.dataUrl).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const contactOnly = await owner.api.post('/api/instance/letterhead/update', { data: { phone: '' } });
    expect(contactOnly.body).toMatchObject({ phone: '', email: 'info@muster.ch', logo: { type: 'image/png' } });
    const removed = await owner.api.post('/api/instance/letterhead/update', { data: { logo: null } });
    expect(removed.body).toMatchObject({ email: 'info@muster.ch', logo: null });
  });

  it('refuses a file that is no PNG or JPEG, a logo above 512 KB, a bad e-mail, phone or website, naming the field and changing nothing', async () => {
    const before = (await owner.api.get('/api/instance/letterhead')).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ logo: { type: 'image/png', data: Buffer.from('GIF89a not a png').toString('base64') } }, 'logo'],
      [{ logo: { type: 'image/png', data: Buffer.concat([tinyPng(), Buffer.alloc(600 * 1024)]).toString('base64') } }, 'logo'],
      [{ logo: { type: 'image/png', data: 'not base64!' } }, 'logo'],
      [{ email: 'info-at-muster.ch' }, 'email'],
      [{ phone: 'call me' }, 'phone'],
      [{ website: 'not a site' }, 'website'],
    ];
    for (const [data, field] of cases) {
      const refused = await owner.api.post('/api/instance/letterhead/update', { data });
      expect(refused.status, JSON.stringify(data).slice(0, 80)).toBe(400);
      expect(Object.keys(refused.body.fields)).toEqual([`data.${field}`]);
    }
    expect((await owner.api.post('/api/instance/letterhead/update', { data: { fax: '1' } })).status).toBe(400);
    expect((await owner.api.get('/api/instance/letterhead')).body).toEqual(before);
  });

  it.runIf(engine === 'postgres')('10 parallel saves of one instance leave one letterhead, whole from one of them', async () => {
    const w = await createWorkplace(server);
    const saves = await Promise.all(
      Array.from({ length: 10 }, (_, i) => w.api.post('/api/instance/letterhead/update', { data: { phone: `+41 44 000 00 ${String(i).padStart(2, '0')}`, website: `www.site${i}.ch` } })),
    );
    expect(saves.map((s) => s.status)).toEqual(Array(10).fill(200));
    const [row] = await server.db.asOwner((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM instance_letterhead WHERE instance_id = $1', [w.instanceId]));
    expect(row!.n).toBe(1);
    const stored = (await w.api.get('/api/instance/letterhead')).body;
    const i = Number(stored.phone.slice(-2));
    expect(stored.website).toBe(`www.site${i}.ch`);
  });

  it('is set by owners and admins only, and each instance sees its own', async () => {
    const viewer = await createWorkplace(server, { role: 'viewer', onboard: false });
    expect((await viewer.api.get('/api/instance/letterhead')).status).toBe(200);
    expect((await viewer.api.post('/api/instance/letterhead/update', { data: { phone: '1' } })).status).toBe(403);
    const other = await createWorkplace(server);
    await other.api.post('/api/instance/letterhead/update', { data: { website: 'https://other.example' } });
    expect((await owner.api.get('/api/instance/letterhead')).body.website).toBe('www.muster.ch');
    expect((await other.api.get('/api/instance/letterhead')).body.website).toBe('https://other.example');
  });
});

describe('documents print the letterhead', () => {
  it("an invoice's PDF carries the contact lines under the address and the logo as an image; without a letterhead neither", async () => {
    const w = await invoicingWorkplace(server);
    const created = await w.api.post('/api/invoice/insert', { data: { ...invoiceData(w), items: [{ name: 'Beratung', amount: '1', price: '100.00' }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'letterhead-'));
    const read = async (name: string) => {
      const file = join(dir, `${name}.pdf`);
      writeFileSync(file, await invoicePdf(server, w, created.body.uuid));
      return { text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }), images: execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }) };
    };
    const plain = await read('plain');
    expect(plain.text).not.toContain('info@muster.ch');
    // pdfimages lists a header and a rule, then one row per image.
    const imageRows = (list: string) => list.trim().split('\n').slice(2).length;
    const before = imageRows(plain.images);
    const saved = await w.api.post('/api/instance/letterhead/update', {
      data: { phone: '+41 44 123 45 67', email: 'info@muster.ch', website: 'www.muster.ch', logo: { type: 'image/png', data: tinyPng().toString('base64') } },
    });
    expect(saved.status).toBe(200);
    const printed = await read('letterhead');
    const head = printed.text.split('\n').slice(0, 12).join('\n');
    expect(head).toContain('+41 44 123 45 67');
    expect(head).toContain('info@muster.ch');
    expect(head).toContain('www.muster.ch');
    expect(imageRows(printed.images)).toBe(before + 1);
    expect(printed.images).toMatch(/\b2\s+1\s+rgb\b/);
  });
});
