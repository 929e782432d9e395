/** The invoice form's address choice (issue 18 §2: the form loads the chosen customer's addresses only). */
import type { CustomerAddress } from './api';

/**
 * The addresses the form offers for customer `companyUuid`: those `address/list` answered (null
 * while they load), and the edited document's own address when it is of that customer and not
 * among them (yet): editing shows its address before the list arrives.
 */
export function addressChoices(
  loaded: readonly CustomerAddress[] | null,
  companyUuid: string | null,
  document: { company: { uuid: string }; address: CustomerAddress } | undefined,
): { value: string; label: string }[] {
  const own = document && document.company.uuid === companyUuid ? document.address : undefined;
  const addresses = [...(loaded ?? []), ...(own && !loaded?.some((a) => a.id === own.id) ? [own] : [])];
  return addresses.map((a) => ({ value: String(a.id), label: `${a.street}${a.houseNumber ? ` ${a.houseNumber}` : ''}, ${a.zip} ${a.city}` }));
}
