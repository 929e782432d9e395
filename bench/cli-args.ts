/**
 * Command-line flags of the benchmarks run through npm scripts. `npm run bench -- --quick` hands
 * `--quick` to npm, which takes it as its own configuration (npm_config_quick) and passes on only
 * the values: the benchmark would silently run in full. Refuse that with the way to write it, and
 * refuse unknown flags with the usage text (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The flags' values, or exit 2 with `usage` on stderr. `script` is the npm script that runs the
 * benchmark (`bench`, `bench:lists`): it names the way to pass flags through npm. `--help` prints
 * `usage` and exits 0 (when `options` declares `help`).
 */
export function benchArgs<const O extends Options>(options: O, usage: string, script: string) {
  const hint =
    `npm took the flags for itself: from the repository root write \`npm run -s ${script} -- -- --flag …\` ` +
    `(or \`npm run -s ${script} -w @bilan/bench -- --flag …\`).`;
  const swallowed = Object.keys(options).filter((name) => process.env[`npm_config_${name.replace(/-/g, '_')}`] !== undefined);
  // `--no-write` reaches npm as its own `write` setting.
  if (swallowed.length || process.env.npm_config_write !== undefined) {
    process.stderr.write(`${hint}\n\n${usage}`);
    process.exit(2);
  }
  let values: ReturnType<typeof parseArgs<{ options: O }>>['values'];
  try {
    ({ values } = parseArgs({ options }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${process.env.npm_lifecycle_event ? `${hint}\n` : ''}\n${usage}`);
    process.exit(2);
  }
  if ((values as { help?: boolean }).help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return values;
}

/**
 * A numeric flag (`_` allowed as a digit separator: `--lines 1_000_000`), `fallback` when absent;
 * exits 2 naming the flag when it is not a positive number (`integer`: a positive integer).
 */
export function positiveFlag(value: string | undefined, fallback: number, name: string, usage: string, integer = false): number {
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/_/g, ''));
  if (integer ? !Number.isInteger(parsed) || parsed < 1 : !Number.isFinite(parsed) || parsed <= 0) {
    process.stderr.write(`--${name} must be a positive ${integer ? 'integer' : 'number'}\n\n${usage}`);
    process.exit(2);
  }
  return parsed;
}
