import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

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
