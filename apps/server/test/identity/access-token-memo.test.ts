/**
 * The verified access tokens kept by the session service (issue 18 §2): a token checked once is
 * not checked by HMAC again, but it still stops at its expiry and still needs its live session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ledgerWorkplace, type LedgerWorkplace } from '../accounting/ledger.js';
import { ACCESS_TOKEN_TTL_S } from '../../src/modules/identity/session.service.js';

let server: TestServer;
let wp: LedgerWorkplace;

beforeAll(async () => {
  server = await startTestServer();
  wp = await ledgerWorkplace(server);
});
afterAll(async () => server?.close());
afterEach(() => vi.useRealTimers());

const accounts = (token: string | undefined) => wp.api.withToken(token).post('/api/accounting/account/list', {});

describe('verified access tokens', () => {
  it('accept a token again and again, and refuse it once it expires though it was verified before', async () => {
    expect((await accounts(wp.api.token)).status).toBe(200);
    expect((await accounts(wp.api.token)).status).toBe(200);
    // Only the clock of this process moves: the database's session row is still alive.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (ACCESS_TOKEN_TTL_S + 1) * 1000);
    expect((await accounts(wp.api.token)).status).toBe(401);
  });

  it('refuse a token whose signature is changed, though the original was verified', async () => {
    const token = wp.api.token!;
    expect((await accounts(token)).status).toBe(200);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    expect((await accounts(`${header}.${payload}.${flipped}`)).status).toBe(401);
  });
});
