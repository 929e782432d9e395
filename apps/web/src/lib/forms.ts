import { zodResolver } from '@hookform/resolvers/zod';
import { get, set, type FieldError, type FieldErrors, type FieldValues, type Path, type Resolver, type UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { installZodMessages, translateMessage } from '@bilan/domain';
import { currentLanguage, type Language } from './i18n';

// zod's built-in messages become the spec's ('This field is required', 'expected type …'). Every
// form checks through `payloadResolver` here, so installing them when the first form loads keeps
// zod out of the first page's JavaScript (issue 18 §1).
installZodMessages();

/** Payload path → form path, or undefined when no field shows the message. */
export type FormPathOf<V> = (path: string, values: V) => string | undefined;

/**
 * Splits field messages keyed by payload paths into those a known form field shows (keyed by form
 * path) and the rest, as lines for a form-level alert ('_' is a message about the whole payload).
 */
function placeMessages<V>(
  fields: Record<string, string>,
  known: readonly string[],
  mapPath: FormPathOf<V>,
  values: V,
): { placed: [string, string][]; unplaced: string[] } {
  const placed: [string, string][] = [];
  const unplaced: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const target = mapPath(path, values);
    if (target && known.some((field) => target === field || target.startsWith(`${field}.`))) placed.push([target, message]);
    else unplaced.push(path === '_' || path === '' ? message : `${path}: ${message}`);
  }
  return { placed, unplaced };
}

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
  const { placed, unplaced } = placeMessages(fields, known, mapPath, undefined);
  for (const [target, message] of placed) setError(target as Path<T>, { type: 'server', message });
  return unplaced;
}

/** Where a schema's messages go on the form: the fields that show one, and how paths are renamed. */
export interface PayloadPaths<V> {
  /** Form fields (or prefixes such as 'address' or 'lines') that show their own message. */
  known: readonly string[];
  /** Payload path → form path (default: the same); undefined sends the message to `errors.root`. */
  formPath?: FormPathOf<V>;
}

/** The leaves of react-hook-form's nested errors, by dotted path ('' for the payload itself). */
function flattenErrors(node: unknown, path: string, out: Record<string, FieldError>): Record<string, FieldError> {
  if (!node || typeof node !== 'object') return out;
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string') {
    out[path] = record as unknown as FieldError;
    return out;
  }
  for (const [key, child] of Object.entries(record)) flattenErrors(child, path ? `${path}.${key}` : key, out);
  return out;
}

/** The schema's messages in the UI's language (the same catalog the server answers 400s with). */
function translateErrors(node: unknown, language: Language): void {
  if (language === 'en' || !node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string') {
    if (typeof record.message === 'string') record.message = translateMessage(record.message, language);
    return;
  }
  for (const child of Object.values(record)) translateErrors(child, language);
}

/**
 * A react-hook-form resolver that validates with the domain's zod schema, the one the route checks
 * (STYLE.md #3): `toPayload` turns the form's input values into the request payload, the schema
 * parses it, and submit receives the parsed payload. Without `paths`, errors stay on payload paths
 * (form fields named after the payload's); with `paths`, each message moves to its form field, and
 * the ones no field shows become `errors.root` (one line each), so a refused submit never stays silent.
 */
export function payloadResolver<V extends FieldValues, S extends z.ZodType>(
  schema: S,
  toPayload: (values: V) => unknown,
  paths?: PayloadPaths<V>,
): Resolver<V, unknown, z.output<S>> {
  const resolve = zodResolver(schema as z.ZodType<z.output<S>, FieldValues>);
  return async (values, context, options) => {
    const result = (await resolve(toPayload(values) as FieldValues, context, options as never)) as Awaited<ReturnType<Resolver<V, unknown, z.output<S>>>>;
    translateErrors(result.errors, currentLanguage());
    if (!paths || Object.keys(result.errors).length === 0) return result;
    const leaves = flattenErrors(result.errors, '', {});
    const messages = Object.fromEntries(Object.entries(leaves).map(([path, error]) => [path, error.message ?? '']));
    const { placed, unplaced } = placeMessages(messages, paths.known, paths.formPath ?? ((path) => path), values);
    const errors: FieldErrors<V> = {};
    for (const [target, message] of placed) {
      // First message per field: a later issue on the same field must not hide the first.
      if (!get(errors, target)) set(errors, target, { type: 'validate', message });
    }
    if (unplaced.length) set(errors, 'root', { type: 'validate', message: unplaced.join('; ') });
    return { values: {}, errors };
  };
}
