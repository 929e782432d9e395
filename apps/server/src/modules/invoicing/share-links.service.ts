/** Public share links of invoices (spec §3 "Public share link"). */
import { createHash, randomBytes } from 'node:crypto';
import type { Tx } from '../../db/database.js';
import { loadRow } from './documents.service.js';

const hashKey = (key: string) => createHash('sha256').update(key).digest();

/** Encodes the share link token: base64url of JSON {uuid, key} (spec §3 "Public share link"). */
export const encodeShareToken = (uuid: string, key: string) => Buffer.from(JSON.stringify({ uuid, key })).toString('base64url');

export function decodeShareToken(token: string): { uuid: string; key: string } | null {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value && typeof (value as { uuid?: unknown }).uuid === 'string' && typeof (value as { key?: unknown }).key === 'string') {
      return value as { uuid: string; key: string };
    }
  } catch {
    // fall through
  }
  return null;
}

/** Creates a new share key for an invoice (earlier keys are revoked); returns the token. */
export async function shareInvoice(tx: Tx, instanceId: string, uuid: string): Promise<{ token: string }> {
  await loadRow(tx, instanceId, uuid);
  const key = randomBytes(24).toString('base64url');
  await tx.query('DELETE FROM invoice_share WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, uuid]);
  await tx.query('INSERT INTO invoice_share (key_hash, instance_id, invoice_uuid) VALUES ($1, $2, $3)', [hashKey(key), instanceId, uuid]);
  return { token: encodeShareToken(uuid, key) };
}

/** Revokes every share key of an invoice. */
export async function revokeShare(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await loadRow(tx, instanceId, uuid);
  await tx.query('DELETE FROM invoice_share WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, uuid]);
}

/** The instance of a valid share token (looked up as bilan_auth), or null. */
export async function resolveShare(authTx: Tx, token: string): Promise<{ instanceId: string; uuid: string } | null> {
  const decoded = decodeShareToken(token);
  if (!decoded) return null;
  const [row] = await authTx.query<{ instance_id: string }>('SELECT instance_id FROM invoice_share WHERE key_hash = $1 AND invoice_uuid::text = $2', [
    hashKey(decoded.key),
    decoded.uuid,
  ]);
  return row ? { instanceId: row.instance_id, uuid: decoded.uuid } : null;
}
