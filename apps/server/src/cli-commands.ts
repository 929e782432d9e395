/**
 * The commands of the admin CLI (cli.ts), loaded once the command line asks for one: `--help`
 * and mistakes in the options are answered without loading the database and the services
 * (decision 035: the CLI starts in well under half a second).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { parseArgs } from 'node:util';
import { isCurrencyCode, isValidIsoDate, type CurrencyCode } from '@bilan/domain';
import { loadConfig } from './config.js';
import type { OPTIONS } from './cli.js';
import type { Database } from './db/database.js';
import { migrationFiles } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { AppError } from './http/errors.js';
import { importChart, importJournal, seedSwissSmeChart, todayInSwitzerland, trialBalance } from './modules/accounting/accounting.service.js';
import { toCsv } from './lib/csv.js';
import { unblockUser } from './modules/identity/two-factor.service.js';
import { setSuperadmin, userIdByEmail } from './modules/identity/users.service.js';
import { createInstance as insertInstance, findInstanceByName } from './modules/instances/instances.service.js';

/** A mistake in the command line: printed with the usage (recognized by its name in cli.ts). */
export class UsageError extends Error {
  override name = 'UsageError';
}

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function onlyOptions(values: Options, allowed: readonly (keyof Options)[], command: string): void {
  const extra = (Object.keys(values) as (keyof Options)[]).filter((key) => values[key] !== undefined && !allowed.includes(key));
  if (extra.length) throw new UsageError(`${command} does not take --${extra.join(', --')}`);
}

function required(value: string | undefined, option: string): string {
  if (!value?.trim()) throw new UsageError(`--${option} is required`);
  return value.trim();
}

/** The caller's directory: npm runs workspace scripts inside apps/server and passes it as INIT_CWD. */
const callerPath = (file: string) => resolve(process.env.INIT_CWD ?? process.cwd(), file);

async function readInput(file: string | undefined): Promise<string> {
  if (!file) throw new UsageError('FILE is required');
  try {
    return await readFile(callerPath(file), 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, {
      cause: error,
    });
  }
}

/** Instance by name, case-insensitive (names are unique by lower(name), migration 0001). */
async function findInstance(db: Database, name: string): Promise<{ id: string; name: string }> {
  const instance = await db.withAuth((tx) => findInstanceByName(tx, name));
  if (!instance) throw new Error(`instance "${name}" not found`);
  return { id: instance.uuid, name: instance.name };
}

async function createInstance(db: Database, name: string, currency: CurrencyCode, withChart: boolean): Promise<string> {
  let id: string;
  try {
    ({ uuid: id } = await db.withAuth((tx) => insertInstance(tx, { name, currency, initialized: true })));
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Error(`Instance name already taken: "${name}"`, { cause: error });
    if ((error as { code?: string }).code === '23514') throw new Error(`invalid instance name "${name}" (1 to 100 characters)`, { cause: error });
    throw error;
  }
  if (withChart) await db.withInstance(id, (tx) => seedSwissSmeChart(tx, id, currency));
  return id;
}

/** Runs a command (not help: cli.ts answers that without loading this module); its output. */
export async function run(values: Options, positionals: string[], db: () => Promise<Database>): Promise<string> {
  const [command, sub, ...rest] = positionals;

  if (command === 'migrate') {
    onlyOptions(values, [], 'migrate');
    if (sub !== undefined) throw new UsageError(`unexpected argument "${sub}"`);
    // Opening migrates; reading schema_migration back would need the owner, not DATABASE_URL's user.
    await db();
    const names = migrationFiles();
    return `database up to date: ${names.length} migrations, last ${names[names.length - 1] ?? 'none'}`;
  }

  if (command === 'instance' && sub === 'create') {
    onlyOptions(values, ['name', 'currency', 'no-chart'], 'instance create');
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const name = required(values.name, 'name');
    const currency = (values.currency ?? 'CHF').toUpperCase();
    if (!isCurrencyCode(currency)) throw new UsageError(`unknown currency "${values.currency}"`);
    return createInstance(await db(), name, currency, !values['no-chart']);
  }

  if (command === 'import' && (sub === 'chart' || sub === 'journal')) {
    onlyOptions(values, ['instance'], `import ${sub}`);
    if (rest.length > 1) throw new UsageError(`unexpected argument "${rest[1]}"`);
    const instanceName = required(values.instance, 'instance');
    const text = await readInput(rest[0]);
    const database = await db();
    const instance = await findInstance(database, instanceName);
    if (sub === 'chart') {
      const result = await database.withInstance(instance.id, (tx) => importChart(tx, instance.id, text));
      return `chart imported into "${instance.name}": ${result.created} created, ${result.updated} updated`;
    }
    const result = await database.withInstance(instance.id, (tx) => importJournal(tx, instance.id, null, text));
    return `journal imported into "${instance.name}": ${result.entries} entries, ${result.lines} postings, ${result.dateFrom} to ${result.dateTo}`;
  }

  if (command === 'trial-balance') {
    onlyOptions(values, ['instance', 'date', 'format', 'output'], 'trial-balance');
    if (sub !== undefined) throw new UsageError(`unexpected argument "${sub}"`);
    const instanceName = required(values.instance, 'instance');
    const date = values.date ?? todayInSwitzerland();
    if (!isValidIsoDate(date)) throw new UsageError(`--date: expected YYYY-MM-DD with a year from 1900 to 2300, got "${date}"`);
    const format = values.format ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw new UsageError(`--format must be csv or json, got "${format}"`);
    const database = await db();
    const instance = await findInstance(database, instanceName);
    const trial = await database.withInstance(instance.id, (tx) => trialBalance(tx, instance.id, date));
    const rows = trial.accounts.map((a) => ({ account: a.number, name: a.name, debit: a.debit, credit: a.credit, balance: a.balance }));
    const text =
      format === 'json'
        ? JSON.stringify(rows, null, 2)
        : toCsv([['account', 'name', 'debit', 'credit', 'balance'], ...rows.map((r) => [r.account, r.name, r.debit, r.credit, r.balance])]).trimEnd();
    if (values.output === undefined) return text;
    const file = callerPath(required(values.output, 'output'));
    await writeFile(file, `${text}\n`);
    return `trial balance of "${instance.name}" as of ${date} written to ${file} (${rows.length} accounts)`;
  }

  if (command === 'user' && (sub === 'superadmin' || sub === 'unblock')) {
    onlyOptions(values, sub === 'superadmin' ? ['email', 'revoke'] : ['email'], `user ${sub}`);
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const email = required(values.email, 'email').toLowerCase();
    const database = await db();
    if (sub === 'unblock') {
      const userId = await database.withAuth((tx) => userIdByEmail(tx, email));
      if (!userId || !(await unblockUser(database, userId, null, {}))) throw new AppError('not_found', `no user with e-mail "${email}"`);
      return `${email} unblocked`;
    }
    const flag = !values.revoke;
    // Run as the owner: granting platform rights is not something sign-in code (bilan_auth) does.
    if (!(await database.asOwner((tx) => setSuperadmin(tx, email, flag)))) throw new AppError('not_found', `no user with e-mail "${email}"`);
    return flag ? `${email} is now a superadmin` : `${email} is no longer a superadmin`;
  }

  throw new UsageError(`unknown command "${[command, sub].filter(Boolean).join(' ')}"`);
}

/** The configured database (DATABASE_URL or BILAN_DATA_DIR), opened and migrated. */
export const openConfiguredDatabase = (): Promise<Database> => openDatabase(loadConfig());
