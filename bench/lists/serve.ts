/**
 * Serves a database that `bench:lists --keep` left, for EXPLAIN and statement logs against a live
 * server: builds the app on it as the bench does (`benchConfig`), listens on 127.0.0.1:PORT and
 * prints a bearer token (15 minutes) of the member of the instance with the most invoices.
 *
 *   npx tsx bench/lists/serve.ts postgres://postgres@127.0.0.1:5432/bilan_bench_<pid> 3411
 *   curl -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \
 *        -d '{"filters":{"text":"Beratung"}}' http://127.0.0.1:3411/api/invoice/list-w-amounts
 */
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { openPostgres } from '../../apps/server/src/db/database.js';
import { benchConfig } from '../ledger/setup.js';

const [url, portText] = process.argv.slice(2);
if (!url || !portText) {
  console.error('Usage: npx tsx bench/lists/serve.ts DATABASE_URL PORT');
  process.exit(2);
}
const db = await openPostgres(url);
const app = await buildApp({ config: benchConfig(), db });
await app.listen({ port: Number(portText), host: '127.0.0.1' });
const owner = new pg.Client(url);
await owner.connect();
const { rows } = await owner.query<{ instance_id: string; user_id: string }>(
  `SELECT i.instance_id, m.user_id
     FROM (SELECT instance_id, count(*) FROM invoice GROUP BY 1 ORDER BY 2 DESC LIMIT 1) i
     JOIN instance_member m USING (instance_id) LIMIT 1`,
);
await owner.end();
if (!rows[0]) throw new Error(`no instance with invoices in ${url}`);
const session = await db.withAuth((tx) => app.sessions.start(tx, rows[0]!.user_id, rows[0]!.instance_id, {}));
console.log(`serving ${url} at http://127.0.0.1:${portText}\nTOKEN ${session.accessToken}`);
