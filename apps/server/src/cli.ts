/**
 * Admin command line: `npm run cli -- <command>` from the repository root. Uses the server's
 * configuration (DATABASE_URL or BILAN_DATA_DIR) and runs the same service code as the HTTP API.
 * Errors: one line on stderr and exit code 1; bad arguments also print the usage.
 */
import { parseArgs } from 'node:util';
import type { Database } from './db/database.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                                             apply pending database migrations
  instance create --name NAME [--currency CODE] [--no-chart]
                                                      create an initialized instance (Swiss SME chart unless
                                                      --no-chart; currency default CHF); prints its uuid
  import chart --instance NAME FILE                   import a chart CSV (number,name,type[,currency] or
                                                      number,name,kind,type), upserting by number
  import journal --instance NAME FILE                 import a journal CSV (date,entry,description,account,amount,currency)
  trial-balance --instance NAME [--date YYYY-MM-DD] [--format csv|json] [--output FILE]
                                                      trial balance as of the date (default today), csv by default
                                                      (columns account,name,debit,credit,balance), to stdout or FILE
  user superadmin --email EMAIL [--revoke]            make a user platform support (superadmin), or no longer
  user unblock --email EMAIL                          unblock an account blocked by wrong two-factor codes

Database: DATABASE_URL=postgres://… or the embedded PGlite in BILAN_DATA_DIR (default ./data).
Relative FILE paths are relative to the directory the command was started from.
npm prints its own banner on stdout: use \`npm run -s cli -- …\` (or --output) for clean machine output.`;

export const OPTIONS = {
  name: { type: 'string' },
  currency: { type: 'string' },
  'no-chart': { type: 'boolean' },
  instance: { type: 'string' },
  date: { type: 'string' },
  format: { type: 'string' },
  output: { type: 'string' },
  email: { type: 'string' },
  revoke: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs the command line; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let database: Database | undefined;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (values.help || positionals[0] === undefined || positionals[0] === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    // The services, the database drivers and their packages load only for a command.
    const { run, openConfiguredDatabase } = await import('./cli-commands.js');
    const output = await run(values, positionals, async () => (database ??= await openConfiguredDatabase()));
    process.stdout.write(`${output}\n`);
    return 0;
  } catch (error) {
    const isUsage = (error as Error).name === 'UsageError' || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = (error as Error).message.split('\n').map((line) => line.trim()).filter(Boolean).join(' ');
    process.stderr.write(`error: ${message || String(error)}\n`);
    if (isUsage) process.stderr.write(`\n${USAGE}\n`);
    return 1;
  } finally {
    await database?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
