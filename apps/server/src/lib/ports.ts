/**
 * Ports: what a module needs from modules above it, handed in by `buildApp` (assembled in
 * modules/wiring/wiring.ts) as plugin options, never held in a module global (issue 11 §3).
 */

/**
 * `options[name]` of route plugin `plugin`, or a start-up error: a module registered without a port
 * it needs would otherwise answer wrongly (e.g. leave every bank credit unmatched) instead of failing.
 */
export function requirePort<O extends object, K extends keyof O>(options: O, name: K, plugin: string): NonNullable<O[K]> {
  const port = options[name];
  if (port === undefined || port === null) throw new Error(`${plugin}: port '${String(name)}' missing (register the plugin with wireModules() from modules/wiring/wiring.ts)`);
  return port as NonNullable<O[K]>;
}
