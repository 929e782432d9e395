/** BIC (ISO 9362) as spec §5 states it: 4 letters, 2 letters, 2 alphanumerics, optional 3 alphanumerics. */
const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** Spec §5 "BIC"; uppercase only and no spaces, as ISO 9362 writes it. */
export function isValidBic(value: unknown): boolean {
  return typeof value === 'string' && BIC_PATTERN.test(value);
}
