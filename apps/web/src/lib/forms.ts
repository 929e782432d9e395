import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';

/**
 * Puts field messages (from `fieldErrors` of @bilan/domain or a server `{ fields }`) next to the
 * inputs (spec §5 "Forms show server error data objects per field"). `mapPath` renames payload
 * paths to form paths; messages without a matching field are returned for a form-level alert.
 */
export function applyFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: Record<string, string>,
  known: readonly string[],
  mapPath: (path: string) => string | undefined = (path) => path,
): string[] {
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const target = mapPath(path);
    if (target && known.some((field) => target === field || target.startsWith(`${field}.`))) {
      setError(target as Path<T>, { type: 'server', message });
    } else {
      unplaced.push(path === '_' ? message : `${path}: ${message}`);
    }
  }
  return unplaced;
}

/**
 * A react-hook-form resolver that validates with the domain's zod schema, the one the route checks
 * (STYLE.md #3): `toPayload` turns the form's input values into the request payload, the schema
 * parses it, and submit receives the parsed payload. Errors are keyed by payload paths, so form
 * fields are named after the payload's.
 */
export function payloadResolver<V extends FieldValues, S extends z.ZodType>(
  schema: S,
  toPayload: (values: V) => unknown,
): Resolver<V, unknown, z.output<S>> {
  const resolve = zodResolver(schema as z.ZodType<z.output<S>, FieldValues>);
  return (values, context, options) =>
    resolve(toPayload(values) as FieldValues, context, options as never) as ReturnType<Resolver<V, unknown, z.output<S>>>;
}
