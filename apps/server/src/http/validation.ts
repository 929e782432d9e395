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

/** The deepest nesting of arrays and objects a JSON body may have; real bodies stay under 10. */
export const MAX_JSON_DEPTH = 64;
/** Spec-style message for a body nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * True when arrays and objects in `value` nest deeper than `limit`. Iterative, and it stops at the
 * limit: a body of 100,000 brackets (cheap to send, and JSON.parse takes it) would blow the stack
 * of any recursive walk after it, the NUL check's or JSON.stringify's, as a 500 (issue 11 §5).
 */
export function isNestedDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: item, depth } = stack.pop()!;
    if (!item || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

interface Step {
  value: unknown;
  key: string | undefined;
  parent: Step | undefined;
}

const pathOf = (step: Step | undefined): string => {
  const keys: string[] = [];
  for (let at = step; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * The dotted path of the first string in a JSON body that holds a NUL character (U+0000), or
 * undefined. PostgreSQL text cannot store it; finding it before validation names the field instead
 * of a database error that names none. `_` stands for a body that is such a string itself.
 * Iterative (each step points to its parent; the path is built only when found), so no depth of
 * nesting overflows the stack.
 */
export function nulBytePath(value: unknown): string | undefined {
  const stack: Step[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length) {
    const step = stack.pop()!;
    const item = step.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return pathOf(step) || '_';
    } else if (item && typeof item === 'object') {
      const entries = Array.isArray(item) ? item.map((child, index) => [String(index), child] as const) : Object.entries(item);
      // Reversed onto the stack, so the first entry is looked at first.
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        // A key with a NUL is named after its value has been looked at: a stand-in string with one.
        if (key.includes('\u0000')) stack.push({ value: '\u0000', key, parent: step });
        stack.push({ value: child, key, parent: step });
      }
    }
  }
  return undefined;
}
