/** Turns schema validation issues into `{ "a.b.0": message }` so the web can show them per field (spec §5). */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

export function validationFields(issues: readonly ValidationIssue[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const put = (path: string, message: string) => {
    const key = path || '_';
    if (!(key in fields)) fields[key] = message;
  };
  for (const issue of issues) {
    const path = issue.instancePath.split('/').filter(Boolean).join('.');
    const message = issue.message ?? 'invalid';
    const keys = issue.params?.keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      // Name each unknown key, not the object that holds it.
      for (const key of keys) put(path ? `${path}.${String(key)}` : String(key), message);
    } else {
      put(path, message);
    }
  }
  return fields;
}

/** Spec-style message for text PostgreSQL cannot store (a NUL character in a JSON string). */
export const NUL_MESSAGE = 'must not contain a NUL character';

/**
 * The dotted path of the first string in a JSON body that holds a NUL character (U+0000), or
 * undefined. PostgreSQL text cannot store it; finding it before validation names the field instead
 * of a database error that names none. `_` stands for a body that is such a string itself.
 */
export function nulBytePath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '_' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulBytePath(item, [...path, String(index)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulBytePath(item, [...path, key]) ?? (key.includes('\u0000') ? [...path, key].join('.') : undefined);
      if (found) return found;
    }
  }
  return undefined;
}
