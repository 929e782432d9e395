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
